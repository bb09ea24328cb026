import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { UploadDocumentFields } from "@etd/contract/requests";
import type * as Schema from "effect/Schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstAdminSettings, startApiProcess, type ApiProcess } from "./support/api-process.ts";

/*
 * Issue 25: no request can freeze the service. The API runs as `npm start` runs it (its own
 * process: API, projectors and reactors together), and every text field of every endpoint, as
 * the OpenAPI document it builds from its request schemas lists them (bodies, queries, path
 * parameters), gets strings made to make a pattern backtrack or move super-linearly: "a@" + dots
 * + "@" (the sign-in that held the process 11 s at 160 kB), "a@a." repeated, and runs of blanks
 * and of tabs ending in a character that refuses the match. A body is as
 * large as the JSON limit lets through (2 MB); a URL carries what the request line can (about
 * 12 kB). Each is sent as the endpoint admits it: unauthenticated to public and sign-in
 * endpoints, with the intake token to intake, signed in as a role it allows otherwise, so it
 * reaches the decoding and whatever checks follow. Each must be answered in under 100 ms while
 * /api/health, polled from a thread of its own while each is out, answers in under 100 ms; on a busy
 * machine, within a few times what plain text of the same size costs at that moment (below). A new
 * endpoint is covered as it is added: its schemas are in the document; a form the document
 * cannot describe (multipart) must be listed below, or the first test says so.
 */

const available = await postgresAvailable();

/** The issue's bound, for each probe and for each health check meanwhile. */
const LIMIT_MS = 100;
/** express.json's limit is 2 MB (2,097,152 bytes): a body just under it, so that it reaches the schemas. */
const BODY_BYTES = 2_000_000;
const utf8 = new TextEncoder();
/** Of a body's bytes, what the field's path around the value may take: the longest path's JSON is far shorter. */
const PATH_BYTES = 1_000;
/** A request line must fit in Node's 16 kB of headers: what a URL can carry of one value, encoded. */
const URL_VALUE_CHARACTERS = 12_000;
/**
 * A probe passes on a clean try: answered in under 100 ms while every health check that overlapped
 * it answered in under 100 ms too, or, when the machine is busy, within RATIO times the slower of
 * the same request carrying plain text of the same size, sent right after a slow try, and the
 * health checks meanwhile. A super-linear pattern costs seconds where plain text costs milliseconds, busy or
 * not; a busy machine slows both alike (beside stress-ng and other test files, /api/health itself
 * took 100 ms to 1.3 s). The tries stop at the first clean one.
 */
const TRIES = 20;
const RATIO = 4;
/** The reference: text that no pattern backtracks on. */
const PLAIN = (size: number) => "x".repeat(size);
/** An answer this late means the process is held (the quadratic pattern took 11 s at 160 kB): the test stops there and names the probe. */
const FROZEN_MS = 10_000;

const ADMIN = { email: "adversarial.admin@example.com", password: "adversarial-test-password" };
const INTAKE_TOKEN = "intake-token-for-the-adversarial-test-0123";

/**
 * The adversarial strings, each `size` characters long (or nearly): the issue's sign-in attack, the
 * classic one against address patterns, a run of what trimming patterns skip, and a run of what the
 * CSV formula guard scans back over. (Runs of digits and of letters were probes too; every pattern
 * that reads them is bounded, and the lint proves each pattern linear.)
 */
const KINDS: Record<string, (size: number) => string> = {
  "a@ dots @": (size) => `a@${".".repeat(size - 3)}@`,
  "a@a. repeated": (size) => "a@a.".repeat(Math.floor(size / 4)),
  "blanks, then x": (size) => `${" ".repeat(size - 1)}x`,
  "tabs, then =": (size) => `${"\t".repeat(size - 1)}=`,
};

/** Multipart forms, which the OpenAPI document does not describe: their text fields, from the schema the endpoint decodes them with. */
const MULTIPART_FORMS: Record<string, Schema.Struct<Schema.Struct.Fields>> = {
  "post /admin/upload-visa-document": UploadDocumentFields,
};

type JsonSchema = { readonly [key: string]: any };
type FieldPath = readonly (string | number)[];

interface Operation {
  readonly method: string;
  /** As the server routes it: `/admin/get-orders-details/:orderId`. */
  readonly path: string;
  readonly spec: JsonSchema;
}

interface Probe {
  readonly operation: Operation;
  /** `body.email`, `query.searchVal`, `path.orderId`, `form.email`, … */
  readonly field: string;
  readonly kind: string;
  /** Built just before sending, outside the time measured. */
  readonly request: () => Sendable;
  /** The same request with plain text of the same size in the field: the try's reference. */
  readonly plain: () => Sendable;
}

interface Sendable {
  readonly url: string;
  readonly init: RequestInit;
}

/** Whether a JSON Schema admits a string, directly or through anyOf/oneOf/allOf. */
const admitsString = (schema: JsonSchema, resolve: (schema: JsonSchema) => JsonSchema): boolean => {
  const resolved = resolve(schema);
  const type = resolved.type as unknown;
  if (type === "string" || (Array.isArray(type) && type.includes("string"))) return true;
  return (["anyOf", "oneOf", "allOf"] as const).some((key) => ((resolved[key] as JsonSchema[] | undefined) ?? []).some((inner) => admitsString(inner, resolve)));
};

/** Every path in a JSON Schema where a string may stand: properties, list items, alternatives. */
const textPaths = (schema: JsonSchema, resolve: (schema: JsonSchema) => JsonSchema, at: FieldPath = [], seen = new Set<JsonSchema>()): FieldPath[] => {
  const resolved = resolve(schema);
  if (seen.has(resolved)) return [];
  const inner = new Set(seen).add(resolved);
  const found: FieldPath[] = admitsString(resolved, resolve) && at.length > 0 ? [at] : [];
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    for (const alternative of (resolved[key] as JsonSchema[] | undefined) ?? []) found.push(...textPaths(alternative, resolve, at, inner));
  }
  for (const [name, property] of Object.entries((resolved.properties as Record<string, JsonSchema> | undefined) ?? {})) {
    found.push(...textPaths(property, resolve, [...at, name], inner));
  }
  if (resolved.items && typeof resolved.items === "object") found.push(...textPaths(resolved.items as JsonSchema, resolve, [...at, 0], inner));
  return [...new Map(found.map((p) => [JSON.stringify(p), p])).values()];
};

/** A JSON value holding `value` at `at` and nothing else: decoding reports every problem, so that field's checks all run. */
const holding = (at: FieldPath, value: string): unknown => at.reduceRight<unknown>((inner, key) => (typeof key === "number" ? [inner] : { [key]: inner }), value);

const fieldName = (at: FieldPath) => at.map((key, i) => (typeof key === "number" ? "[]" : `${i === 0 ? "" : "."}${key}`)).join("");

/**
 * The longest string of a kind whose JSON takes at most BODY_BYTES less PATH_BYTES (a tab is two
 * bytes in JSON), as JSON in UTF-8. Made once per kind and shared by every body probe: escaping
 * and encoding 2 MB anew for each probe cost about 20 ms of this process's CPU, as much as the
 * API took to answer most of them.
 */
const bodyValue = (() => {
  const made = new Map<(size: number) => string, Uint8Array>();
  return (kind: (size: number) => string): Uint8Array => {
    let bytes = made.get(kind);
    if (bytes === undefined) {
      const room = BODY_BYTES - PATH_BYTES;
      const full = kind(room);
      const json = JSON.stringify(full);
      const bytesPerCharacter = json.length / full.length;
      bytes = utf8.encode(bytesPerCharacter > 1.01 ? JSON.stringify(kind(Math.floor(room / bytesPerCharacter))) : json);
      made.set(kind, bytes);
    }
    return bytes;
  };
})();

/** `JSON.stringify(holding(at, value))` in UTF-8, the value the kind's string above. */
const bodyHolding = (kind: (size: number) => string, at: FieldPath): Uint8Array => {
  const around = JSON.stringify(holding(at, ""));
  // The empty string is the only value in it, and no key is empty.
  const hole = around.indexOf('""');
  const [before, after] = [utf8.encode(around.slice(0, hole)), utf8.encode(around.slice(hole + 2))];
  const value = bodyValue(kind);
  const body = new Uint8Array(before.length + value.length + after.length);
  body.set(before);
  body.set(value, before.length);
  body.set(after, before.length + value.length);
  return body;
};

/** The longest string of a kind whose URL encoding fits the request line. */
const forUrl = (kind: (size: number) => string): string => {
  const sample = kind(URL_VALUE_CHARACTERS);
  return kind(Math.floor((URL_VALUE_CHARACTERS * sample.length) / encodeURIComponent(sample).length));
};

const multipart = (fields: Record<string, string>): { body: string; contentType: string } => {
  const boundary = "----adversarial-text-boundary";
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { body: `${parts.join("")}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
};

/**
 * Polls a URL from a thread of its own, one check right after the other, while told "poll" (until
 * "pause" or "stop"), posting when each check begins and, as it ends, the check: this process's
 * own work never delays a check, so its time is the API's. Times are the epoch's milliseconds
 * (timeOrigin + now), comparable across threads.
 */
const HEALTH_POLLER = `
const { parentPort, workerData } = require("node:worker_threads");
let mode = "pause";
let wake = () => {};
parentPort.on("message", (told) => { mode = told; wake(); });
(async () => {
  for (;;) {
    if (mode === "stop") break;
    if (mode === "pause") {
      await new Promise((resolve) => { wake = resolve; });
      continue;
    }
    const start = performance.timeOrigin + performance.now();
    parentPort.postMessage({ begun: start });
    const response = await fetch(workerData.url);
    await response.arrayBuffer();
    parentPort.postMessage({ start, end: performance.timeOrigin + performance.now(), status: response.status });
  }
  parentPort.postMessage("stopped");
})();
`;

interface Span {
  readonly start: number;
  readonly end: number;
}

interface HealthCheck extends Span {
  readonly status: number;
}

const msOf = (span: Span) => span.end - span.start;
const epochNow = () => performance.timeOrigin + performance.now();

/**
 * /api/health polled from a worker thread while a request is out: `polling()` settles once a check
 * has begun, and from then one is always under way until `pause()`; `coveredPast(t)` settles once
 * a check has started after `t`. (It polled all the time before: twice the checks, each costing
 * the API and this process CPU that the probes did not need.)
 */
const pollHealth = (url: string) => {
  const checks: HealthCheck[] = [];
  const waiting: { after: number; resolve: () => void }[] = [];
  const begun: (() => void)[] = [];
  const worker = new Worker(HEALTH_POLLER, { eval: true, workerData: { url } });
  const stopped = new Promise<void>((resolve, reject) => {
    worker.on("message", (message: HealthCheck | { begun: number } | "stopped") => {
      if (message === "stopped") return resolve();
      if ("begun" in message) {
        for (const resolveBegun of begun.splice(0)) resolveBegun();
        return;
      }
      checks.push(message);
      for (const wait of waiting.filter((w) => message.start >= w.after)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
    });
    worker.once("error", reject);
  });
  return {
    checks,
    /** The checks that overlap `span` (once `coveredPast(span.end)` has settled, all of them). */
    during: (span: Span) => checks.filter((check) => check.start < span.end && check.end > span.start),
    coveredPast: (after: number) => (checks.some((check) => check.start >= after) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ after, resolve }))),
    polling: () => {
      const next = new Promise<void>((resolve) => begun.push(resolve));
      worker.postMessage("poll");
      return next;
    },
    pause: () => worker.postMessage("pause"),
    stop: async () => {
      worker.postMessage("stop");
      await stopped;
      await worker.terminate();
    },
  };
};

const quantile = (values: readonly number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;

describe.skipIf(!available)("issue 25: adversarial text in every text field of every endpoint is answered at once, and the service stays up meanwhile", () => {
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let api: ApiProcess | undefined;
  let base: string;
  let document: JsonSchema;
  let operations: Operation[];
  let session: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), "etd-adversarial-"));
    api = await startApiProcess(firstAdminSettings({ databaseUrl: database.url, dataDir, admin: ADMIN, intakeToken: INTAKE_TOKEN, jwtSecret: "a-test-secret-that-is-long-enough-0123456789" }));
    base = api.base;
    document = (await (await fetch(`${base}/api/openapi.json`)).json()) as JsonSchema;
    operations = Object.entries(document.paths as Record<string, Record<string, JsonSchema>>).flatMap(([openApiPath, methods]) =>
      Object.entries(methods).map(([method, spec]) => ({ method, path: openApiPath.replace(/^\/api/, "").replace(/\{([A-Za-z]+)\}/g, ":$1"), spec })),
    );
    const signedIn = await fetch(`${base}/api/admin/admin-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
    session = ((await signedIn.json()) as { jwtToken: string }).jwtToken;
  });

  afterAll(async () => {
    await api?.stop();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const resolve = (schema: JsonSchema): JsonSchema => {
    let current = schema;
    while (typeof current.$ref === "string") current = document.components.schemas[current.$ref.split("/").at(-1)!] as JsonSchema;
    return current;
  };

  /** Who may call it, as the document says: nobody signed in, the intake token, or the roles allowed (this API's one member is the Admin). */
  const credentialFor = (operation: Operation): Record<string, string> => {
    const security = (operation.spec.security as JsonSchema[]).flatMap((entry) => Object.keys(entry));
    if (security.length === 0) return {};
    if (security.includes("serviceToken")) return { authorization: `Bearer ${INTAKE_TOKEN}` };
    return { authorization: session };
  };

  const probesOf = (operation: Operation): Probe[] => {
    const auth = credentialFor(operation);
    const params = [...operation.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);
    const urlWith = (param: string | undefined, value: string, query = "") =>
      `${base}/api${operation.path.replace(/:([A-Za-z]+)/g, (_, name: string) => (name === param ? encodeURIComponent(value) : "100001"))}${query}`;
    // The body goes as bytes, encoded here: the time measured is the request's, not this process's encoding.
    const send = (url: string, headers: Record<string, string> = {}, body?: string | Uint8Array) => ({
      url,
      init: { method: operation.method.toUpperCase(), headers: { ...auth, ...headers }, ...(body === undefined ? {} : { body: typeof body === "string" ? utf8.encode(body) : body }) },
    });
    const bodySchema = operation.spec.requestBody?.content?.["application/json"]?.schema as JsonSchema | undefined;
    const form = MULTIPART_FORMS[`${operation.method} ${operation.path}`];
    const probes: Probe[] = [];
    const probe = (field: string, kind: string, build: (make: (size: number) => string) => Sendable): Probe => ({
      operation,
      field,
      kind,
      request: () => build(KINDS[kind]!),
      plain: () => build(PLAIN),
    });
    for (const kind of Object.keys(KINDS)) {
      for (const param of params) probes.push(probe(`path.${param}`, kind, (make) => send(urlWith(param, forUrl(make)))));
      for (const parameter of (operation.spec.parameters as JsonSchema[] | undefined) ?? []) {
        if (parameter.in !== "query") continue;
        const name = parameter.name as string;
        probes.push(probe(`query.${name}`, kind, (make) => send(urlWith(undefined, "", `?${name}=${encodeURIComponent(forUrl(make))}`))));
      }
      for (const at of bodySchema ? textPaths(bodySchema, resolve) : []) {
        probes.push(
          probe(`body.${fieldName(at)}`, kind, (make) =>
            send(urlWith(undefined, ""), { "content-type": "application/json" }, bodyHolding(make, at)),
          ),
        );
      }
      for (const name of form ? Object.keys(form.fields) : []) {
        probes.push(
          probe(`form.${name}`, kind, (make) => {
            const { body, contentType } = multipart({ [name]: make(BODY_BYTES - 200) });
            return send(urlWith(undefined, ""), { "content-type": contentType }, body);
          }),
        );
      }
    }
    return probes;
  };

  /** One request, from sending to the whole answer read. */
  const sent = async (request: () => Sendable): Promise<Span & { status: number }> => {
    const { url, init } = request();
    const start = epochNow();
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(FROZEN_MS) });
    await response.arrayBuffer();
    return { start, end: epochNow(), status: response.status };
  };

  /** The commands whose whole input is their path (and the caller). */
  const TAKES_NO_BODY = ["/admin/take-next-order", "/admin/operations/read-models/:name/rebuild", "/admin/operations/reactors/:name/retry"];

  it("finds the text fields of every endpoint: each body, query and path parameter, and the multipart forms", () => {
    expect(operations.length).toBeGreaterThan(50);
    for (const operation of operations) {
      // A POST or PUT without a JSON body schema reads its input itself: it must be listed above,
      // unless it takes none beyond its path (Take next, issue 27; the operator's actions, issue 28).
      if (operation.method !== "get" && !operation.spec.requestBody && !TAKES_NO_BODY.includes(operation.path)) expect(Object.keys(MULTIPART_FORMS)).toContain(`${operation.method} ${operation.path}`);
      // The one member this API has must be let in wherever staff are.
      if (credentialFor(operation).authorization === session) expect(operation.spec.description as string).toMatch(/Allowed: Admin\b/);
    }
    const fields = (method: string, apiPath: string) => [...new Set(probesOf(operations.find((o) => o.method === method && o.path === apiPath)!).map((p) => p.field))];
    expect(fields("post", "/admin/admin-login").sort()).toEqual(["body.email", "body.password"]);
    expect(fields("post", "/intake/orders")).toEqual(expect.arrayContaining(["body.email", "body.confirm_email", "body.first_name", "body.custom_declaration_details[].type"]));
    expect(fields("post", "/admin/upload-visa-document")).toEqual(expect.arrayContaining(["form.email", "form.orderId"]));
    expect(fields("get", "/audit/orders/:orderId/as-of")).toEqual(["path.orderId", "query.at"]);
  });

  it("answers each probe in under 100 ms (busy: within 4 times plain text of its size) with no server error, with /api/health as fast meanwhile", { timeout: 1_800_000 }, async () => {
    const probes = operations.flatMap(probesOf);
    expect(probes.length).toBeGreaterThan(1000);

    const health = pollHealth(`${base}/api/health`);
    /** Per endpoint, the probe whose clean try took longest. */
    const slowest = new Map<string, { field: string; kind: string; status: number; ms: number; tries: number }>();
    const failed: string[] = [];
    /** Every clean try's time, for the summary. */
    const answered: number[] = [];
    const started = performance.now();
    try {
      for (const probe of probes) {
        const name = `${probe.operation.method.toUpperCase()} ${probe.operation.path}`;
        const tries: { ms: number; status: number; healthMs: number; bound: number }[] = [];
        let clean: (typeof tries)[number] | undefined;
        while (clean === undefined && tries.length < TRIES) {
          const timed = async (request: () => Sendable) => {
            // Built before the checks begin: they cover the request, not this process's work.
            const sendable = request();
            await health.polling();
            const answer = await sent(() => sendable).catch((error: unknown) => {
              if ((error as Error).name !== "TimeoutError") throw error;
              throw new Error(`${name} ${probe.field} (${probe.kind}): no answer within ${FROZEN_MS / 1000} s: the API is frozen`, { cause: error });
            });
            await health.coveredPast(answer.end);
            health.pause();
            const meanwhile = health.during(answer);
            return { ms: msOf(answer), status: answer.status, healthMs: Math.max(0, ...meanwhile.map(msOf)), healthy: meanwhile.every((check) => check.status === 200) };
          };
          const attempt = await timed(probe.request);
          const quick = attempt.ms < LIMIT_MS && attempt.healthMs < LIMIT_MS;
          // Only a slow try costs a reference: on a quiet machine nearly every probe is quick.
          const plain = quick ? undefined : await timed(probe.plain);
          const bound = plain === undefined ? LIMIT_MS : Math.max(LIMIT_MS, RATIO * Math.max(plain.ms, plain.healthMs));
          const tried = { ms: attempt.ms, status: attempt.status, healthMs: attempt.healthMs, bound };
          tries.push(tried);
          if (tried.ms < bound && tried.healthMs < bound && attempt.healthy) clean = tried;
        }
        const status = (clean ?? tries.at(-1)!).status;
        if (status >= 500) failed.push(`${name} ${probe.field} (${probe.kind}): ${status}`);
        if (clean === undefined) {
          const seen = tries.map((t) => `${t.ms.toFixed(0)} ms, health ${t.healthMs.toFixed(0)} ms, bound ${t.bound.toFixed(0)} ms`).join("; ");
          failed.push(`${name} ${probe.field} (${probe.kind}): no try within its bound (${LIMIT_MS} ms, or ${RATIO} times plain text of its size), health too (${seen})`);
          continue;
        }
        answered.push(clean.ms);
        const record = slowest.get(name);
        if (!record || clean.ms > record.ms) slowest.set(name, { field: probe.field, kind: probe.kind, status: clean.status, ms: clean.ms, tries: tries.length });
      }
    } finally {
      await health.stop();
    }

    const times = health.checks.map(msOf);
    console.log(
      [
        `issue 25: ${probes.length} adversarial requests to ${slowest.size} endpoints in ${((performance.now() - started) / 1000).toFixed(1)} s;` +
          ` answered in median ${quantile(answered, 0.5).toFixed(1)} ms, p99 ${quantile(answered, 0.99).toFixed(1)} ms; the slowest of each endpoint:`,
        ...[...slowest.entries()].map(([name, r]) => `  ${r.ms.toFixed(1).padStart(6)} ms  ${r.status}  ${name}  ${r.field}  [${r.kind}]${r.tries > 1 ? ` (try ${r.tries})` : ""}`),
        `/api/health meanwhile: ${times.length} checks, median ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`,
      ].join("\n"),
    );
    expect(failed).toEqual([]);
    expect(health.checks.length).toBeGreaterThan(probes.length / 10);
  });
});
