import { fileURLToPath } from "node:url";
import { warmCompileCache } from "@etd/infra/compile-cache";

const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

/**
 * The API's modules go into Node's compile cache before the first test starts the API, which most
 * crash tests end with SIGKILL (see compile-cache.ts). A port it refuses ends it once they are
 * loaded, before it opens anything.
 */
export default function setup(): void {
  warmCompileCache(MAIN, [], { PORT: "not-a-port" });
}
