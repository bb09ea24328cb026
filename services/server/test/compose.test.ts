import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { ConfigError, readConfig, ROLES } from "../src/config.ts";

/*
 * Issue 15 (CARD-7, DESIGN §9): docker-compose.yml runs each service as its own process. No
 * container engine runs here, so this holds the file to what can be checked without one: every
 * service built from this repository runs a script or file that exists, sets only settings the
 * configuration reads and accepts, has a health check, waits on services that exist; the proxy's
 * config names the API replicas; nothing is published beyond this machine.
 */

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const COMPOSE_FILE = path.join(ROOT, "docker-compose.yml");

interface Service {
  readonly image?: string;
  readonly build?: unknown;
  readonly command?: string | readonly string[];
  readonly working_dir?: string;
  readonly environment?: Record<string, string | number | boolean | null> | readonly string[];
  readonly healthcheck?: { readonly test?: string | readonly string[]; readonly disable?: boolean };
  readonly depends_on?: Record<string, { readonly condition?: string }> | readonly string[];
  readonly ports?: readonly (string | number | { readonly host_ip?: string; readonly published?: string | number })[];
  readonly volumes?: readonly (string | { readonly type?: string; readonly source?: string; readonly target?: string })[];
  readonly profiles?: readonly string[];
  readonly network_mode?: string;
}
interface Compose {
  readonly services: Record<string, Service>;
  readonly volumes?: Record<string, unknown>;
}

/** `${VAR:?message}` is required from the operator (an .env file): a valid value of the kind asked for. */
const REQUIRED_SAMPLES: Record<string, string> = { JWT_SECRET: "compose-test-secret-of-more-than-32-chars", POSTGRES_PASSWORD: "compose-test-database-password" };

/** Compose's interpolation: `${VAR:?msg}` from the samples, `${VAR:-default}` as its default, `$$` as `$`. */
const interpolate = (text: string): string =>
  text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])((?:[^{}]|\{[^{}]*\})*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced?: string, op?: string, rest?: string, bare?: string) => {
    if (whole === "$$") return "$";
    const name = braced ?? bare ?? "";
    if (op?.endsWith("-")) return rest ?? "";
    if (name in REQUIRED_SAMPLES) return REQUIRED_SAMPLES[name]!;
    throw new Error(`${whole}: the compose file needs ${name} from outside and the test has no sample value for it`);
  });

const readCompose = (): Compose => {
  const document = parseDocument(readFileSync(COMPOSE_FILE, "utf8"), { merge: true });
  if (document.errors.length > 0) throw new Error(`docker-compose.yml does not parse:\n${document.errors.map((e) => e.message).join("\n")}`);
  return document.toJS({ maxAliasCount: -1 }) as Compose;
};

const environmentOf = (service: Service): Record<string, string> => {
  const entries: [string, string][] = Array.isArray(service.environment)
    ? (service.environment as readonly string[]).map((line) => {
        const at = line.indexOf("=");
        return at < 0 ? [line, ""] : [line.slice(0, at), line.slice(at + 1)];
      })
    : Object.entries(service.environment ?? {}).map(([key, value]) => [key, value == null ? "" : String(value)]);
  return Object.fromEntries(entries.map(([key, value]) => [key, interpolate(value)]));
};

const dependsOn = (service: Service): Record<string, string> =>
  Array.isArray(service.depends_on)
    ? Object.fromEntries((service.depends_on as readonly string[]).map((name) => [name, "service_started"]))
    : Object.fromEntries(Object.entries(service.depends_on ?? {}).map(([name, how]) => [name, how.condition ?? "service_started"]));

/** The command as shell text: `sh -c <script>` gives its script, an argument list is joined. */
const commandText = (service: Service): string => {
  const command = service.command;
  if (command === undefined) return "";
  if (typeof command === "string") return command;
  const shell = ["sh", "bash", "/bin/sh", "/bin/bash"].includes(command[0] ?? "") && /^-\w+$/.test(command[1] ?? "") && command[1]!.includes("c");
  return shell ? (command[2] ?? "") : command.join(" ");
};

interface PackageJson {
  readonly name: string;
  readonly scripts?: Record<string, string>;
  readonly workspaces?: readonly string[];
}
const readPackage = (dir: string): PackageJson => JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as PackageJson;
const rootPackage = readPackage(ROOT);

/** The workspaces by package name, from the root's patterns (`infra/*` or a folder). */
const workspaces = (): Map<string, string> => {
  const found = new Map<string, string>();
  for (const pattern of rootPackage.workspaces ?? []) {
    const dirs = pattern.endsWith("/*")
      ? readdirSync(path.join(ROOT, pattern.slice(0, -2)), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(pattern.slice(0, -2), d.name))
      : [pattern];
    for (const dir of dirs) if (existsSync(path.join(ROOT, dir, "package.json"))) found.set(readPackage(path.join(ROOT, dir)).name, dir);
  }
  return found;
};

/**
 * What a command asks of the repository, one problem per missing piece: `npm run X [-w W]` needs
 * script X in the root's (or W's) package.json, and that script's own `node <file>` must exist;
 * `node <file>` needs the file. The service's working directory is the repository's root.
 */
const commandProblems = (text: string): { problems: string[]; runs: string[] } => {
  const problems: string[] = [];
  const runs: string[] = [];
  const byName = workspaces();
  const checkNodeFiles = (script: string, where: string, dir: string) => {
    for (const match of script.matchAll(/(?:^|[\s;&|])node\s+(?:--?[\w-]+(?:=\S+)?\s+)*([^\s-][^\s;&|]*)/g)) {
      const file = match[1]!;
      if (!existsSync(path.join(dir, file))) problems.push(`${where}: ${file} does not exist`);
    }
  };
  for (const segment of text.split(/&&|\|\||;|\n/)) {
    const argv = segment.trim().split(/\s+/).filter((word) => word !== "");
    if (argv[0] === "npm") {
      const verb = argv[1];
      if (verb === "ci") {
        runs.push("npm ci");
        if (!existsSync(path.join(ROOT, "package-lock.json"))) problems.push("npm ci needs package-lock.json");
        continue;
      }
      if (verb !== "run" && verb !== "run-script" && verb !== "start") continue;
      const script = verb === "start" ? "start" : argv.slice(2).find((word, i, rest) => !word.startsWith("-") && !["-w", "--workspace"].includes(rest[i - 1] ?? ""));
      const flag = argv.findIndex((word) => word === "-w" || word === "--workspace" || word.startsWith("--workspace="));
      const workspace = flag < 0 ? undefined : argv[flag]!.startsWith("--workspace=") ? argv[flag]!.slice("--workspace=".length) : argv[flag + 1];
      const dir = workspace === undefined ? "." : (byName.get(workspace) ?? (existsSync(path.join(ROOT, workspace, "package.json")) ? workspace : undefined));
      if (dir === undefined) {
        problems.push(`${segment.trim()}: no workspace ${workspace}`);
        continue;
      }
      const pkg = readPackage(path.join(ROOT, dir));
      const body = script === undefined ? undefined : pkg.scripts?.[script];
      runs.push(`npm run ${script}${workspace ? ` -w ${workspace}` : ""}`);
      if (body === undefined) problems.push(`${segment.trim()}: ${pkg.name} has no script "${script}"`);
      else checkNodeFiles(body, `script ${script} of ${pkg.name}`, path.join(ROOT, dir));
    } else if (argv[0] === "node") {
      runs.push(segment.trim());
      checkNodeFiles(segment, segment.trim(), ROOT);
    }
  }
  return { problems, runs };
};

/** Reads the configuration as a process of this service would, noting every variable it looks at. */
const configure = (env: Record<string, string>) => {
  const read = new Set<string>();
  const watched = new Proxy(env, {
    get: (target, key, receiver) => {
      if (typeof key === "string") read.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
    has: (target, key) => {
      if (typeof key === "string") read.add(key);
      return Reflect.has(target, key);
    },
  });
  try {
    return { config: readConfig(watched), problems: [] as readonly string[], read };
  } catch (error) {
    if (error instanceof ConfigError) return { config: undefined, problems: error.problems, read };
    throw error;
  }
};

const compose = readCompose();
const services = Object.entries(compose.services);
/** Built from this repository (deploy/Dockerfile), as against an image from a registry. */
const ours = services.filter(([, service]) => service.build !== undefined);
/** Services others wait to have finished (`service_completed_successfully`): one-shot jobs. */
const oneShot = new Set(services.flatMap(([, service]) => Object.entries(dependsOn(service)).filter(([, condition]) => condition === "service_completed_successfully").map(([name]) => name)));
const processes = ours.filter(([name]) => !oneShot.has(name));
const runOf = (service: Service) => environmentOf(service).RUN ?? "";
const apiReplicas = processes.filter(([, service]) => runOf(service).split(",").includes("api")).map(([name]) => name);

describe("docker-compose.yml: every service as its own process (issue 15, CARD-7, DESIGN §9)", () => {
  it("issue 15: parses, and runs API (two replicas), projector, reactors and relay each in its own process beside PostgreSQL and Kafka", () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(["postgres", "kafka", "kurrentdb"]));
    // One role per process: together they run every role the configuration knows.
    expect(processes.map(([, service]) => runOf(service)).sort()).toEqual(["api", "api", ...ROLES.filter((role) => role !== "api")].sort());
    expect(apiReplicas.length).toBe(2);
    expect(oneShot.size).toBeGreaterThan(0);
  });

  it.each(ours.map(([name, service]) => [name, service] as const))(
    "issue 15: %s runs an npm script of this repository (or a file) that exists",
    (_name, service) => {
      const { problems, runs } = commandProblems(commandText(service));
      expect(problems).toEqual([]);
      expect(runs.length).toBeGreaterThan(0);
    },
  );

  it.each(processes.map(([name, service]) => [name, service] as const))(
    "issue 15: every setting %s gives is one the configuration reads, and the configuration accepts them all",
    (_name, service) => {
      const env = environmentOf(service);
      const { config, problems, read } = configure(env);
      expect(problems).toEqual([]);
      expect(Object.keys(env).filter((key) => !read.has(key))).toEqual([]);
      // RUN is understood as meant: this process runs exactly the roles it names.
      expect([...(config?.roles ?? [])].sort()).toEqual(runOf(service).split(",").sort());
      // Several processes share one PostgreSQL: the embedded database would be one process's only.
      expect(config?.databaseUrl).toMatch(/^postgres:\/\/.+@postgres:5432\//);
    },
  );

  it("issue 15: the APIs share one JWT_SECRET, asked of the operator rather than written in the file", () => {
    const raw = new Set(apiReplicas.map((name) => (compose.services[name]!.environment as Record<string, string>).JWT_SECRET));
    expect(raw.size).toBe(1);
    expect([...raw][0]).toMatch(/^\$\{JWT_SECRET:\?[^}]+\}$/);
  });

  it("issue 15: every service has a health check; the processes ask their own /api/health on their PORT", () => {
    for (const [name, service] of services) {
      if (oneShot.has(name)) continue;
      expect(service.healthcheck?.test, `${name} has no health check`).toBeDefined();
      expect(service.healthcheck?.disable, name).not.toBe(true);
    }
    for (const [name, service] of processes) {
      const test = [service.healthcheck?.test ?? []].flat().join(" ");
      expect(test, name).toContain(`127.0.0.1:${environmentOf(service).PORT}/api/health`);
    }
  });

  it("issue 15: depends_on names existing services with known conditions, never a profile's service, and every process waits for the build and PostgreSQL", () => {
    const conditions = ["service_started", "service_healthy", "service_completed_successfully"];
    for (const [name, service] of services) {
      for (const [target, condition] of Object.entries(dependsOn(service))) {
        expect(compose.services[target], `${name} depends on ${target}, which does not exist`).toBeDefined();
        expect(conditions, `${name} -> ${target}`).toContain(condition);
        if (condition === "service_healthy") expect(compose.services[target]?.healthcheck, `${name} waits for ${target} to be healthy`).toBeDefined();
        // A service behind a profile is absent from a plain `docker compose up`.
        if (!service.profiles) expect(compose.services[target]?.profiles, `${name} -> ${target}`).toBeUndefined();
      }
    }
    for (const [name, service] of processes) {
      const waits = dependsOn(service);
      expect(waits.postgres, name).toBe("service_healthy");
      for (const job of oneShot) expect(waits[job], name).toBe("service_completed_successfully");
      if (environmentOf(service).KAFKA_BROKERS) expect(waits.kafka, name).toBe("service_healthy");
    }
  });

  it("issue 15: the proxy's config file exists, names both API replicas, does not buffer /api/live, and forwards the client's address to APIs that trust one hop", () => {
    const proxies = services.filter(([, service]) => apiReplicas.every((api) => dependsOn(service)[api] === "service_healthy"));
    expect(proxies.map(([name]) => name)).toEqual(["proxy"]);
    const [, proxy] = proxies[0]!;
    const mounted = (proxy.volumes ?? []).map((volume) => (typeof volume === "string" ? volume.split(":")[0]! : (volume.source ?? "")));
    const files = mounted.filter((source) => source.startsWith("./") || source.startsWith("/"));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(existsSync(path.join(ROOT, file)), `${file} is mounted but does not exist`).toBe(true);
    const conf = files.map((file) => readFileSync(path.join(ROOT, file), "utf8").replace(/#[^\r\n]*/g, "")).join("\n");
    for (const api of apiReplicas) expect(conf).toMatch(new RegExp(`\\bserver\\s+${api}:${environmentOf(compose.services[api]!).PORT}\\b`));
    const live = /location\s+\/api\/live\s*\{([^}]*)\}/.exec(conf)?.[1] ?? "";
    expect(live).toMatch(/proxy_buffering\s+off;/);
    // A quiet stream outlives nginx's default 60 s read timeout: ten minutes at least.
    const [, amount = "0", unit = "s"] = /proxy_read_timeout\s+(\d+)([smh]?);/.exec(live) ?? [];
    expect(Number(amount) * { s: 1, "": 1, m: 60, h: 3600 }[unit]!).toBeGreaterThanOrEqual(600);
    expect(conf).toMatch(/proxy_set_header\s+X-Forwarded-For\s+\$remote_addr;/);
    for (const api of apiReplicas) expect(configure(environmentOf(compose.services[api]!)).config?.trustProxy, api).toBe(1);
  });

  it("issue 15: every published port listens on 127.0.0.1 only, and every named volume is declared", () => {
    for (const [name, service] of services) {
      expect(service.network_mode, name).toBeUndefined();
      for (const port of service.ports ?? []) {
        const loopback = typeof port === "object" ? port.host_ip === "127.0.0.1" : /^127\.0\.0\.1:\d+:\d+(\/(tcp|udp))?$/.test(String(port));
        expect(loopback, `${name} publishes ${JSON.stringify(port)} beyond loopback`).toBe(true);
      }
      for (const volume of service.volumes ?? []) {
        const source = typeof volume === "string" ? volume.split(":")[0]! : (volume.source ?? "");
        if (!source.startsWith(".") && !source.startsWith("/")) expect(Object.keys(compose.volumes ?? {}), `${name} mounts ${source}`).toContain(source);
      }
    }
  });
});
