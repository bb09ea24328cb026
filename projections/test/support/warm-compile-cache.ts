import { fileURLToPath } from "node:url";
import { warmCompileCache } from "@etd/infra/compile-cache";

const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));

/**
 * The projector CLI's modules go into Node's compile cache before R3 starts it (and kills it with
 * SIGKILL) again and again (see compile-cache.ts). Without a command it prints its usage and
 * ends once they are loaded.
 */
export default function setup(): void {
  warmCompileCache(CLI);
}
