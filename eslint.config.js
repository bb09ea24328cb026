// @ts-check
import { readdirSync } from "node:fs";
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";

/*
 * Import boundaries (ADR 0012). The ground floor is pure: `events` (the event catalogue) imports
 * nothing of ours, `contract` (the wire contract) only the catalogue's words. The event store
 * (infra/event-store) stands on events; `write` and `projections` on events and the store (the
 * read models also produce the contract's rows); the documents on those. The roles (ADR 0035:
 * api, reactors, relay) stand on everything below them and never on each other; the process
 * (services/server) composes them. `web` stands beside the API and imports only the contract:
 * never server code. Relative paths may not climb into another workspace either.
 */
const RULE = "@typescript-eslint/no-restricted-imports";

/** A relative path into another workspace instead of its package name. */
const CLIMBS_OUT = {
  regex: String.raw`^(\.\./)+((events|contract|services|projections|infra|web)(/|$)|(api|write|demo|event-store|mail|testing|storage|pdf|documents|reactors|relay|server)/src(/|$))`,
  message: "Import another workspace by its package name (@etd/…), never by a relative path (ADR 0012).",
};

/** What a role may stand on: every workspace below the roles (ADR 0035). */
const BELOW_THE_ROLES = ["@etd/events", "@etd/contract", "@etd/event-store", "@etd/telemetry", "@etd/mail", "@etd/kafka", "@etd/storage", "@etd/pdf", "@etd/write", "@etd/projections", "@etd/documents", "@etd/demo"];

/** Every package of ours but the listed ones is refused, with the layer's reason. */
const onlyOurs = (allowed, why) => ({
  group: ["@etd/*", ...allowed.flatMap((name) => [`!${name}`, `!${name}/*`])],
  message: `${why} (ADR 0012).`,
});

/*
 * Sealed features (ADR 0030): a web feature (web/src/features/<name>) imports no other feature,
 * and lib/ and components/, which the features share, import none. Read from the folder, so a new
 * feature is sealed without a change here.
 */
const WEB_FEATURES = readdirSync(new URL("web/src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** A relative path into one of `features` (from inside web/src/features/ or from elsewhere in web/src). */
const intoFeaturesPattern = (features) => String.raw`^(\.\./)+(features/)?(${features.join("|")})(/|$)`;

/** The same for `import()`, which no-restricted-imports does not see (a selector's pattern cannot hold a "/"). */
const importExpressionInto = (pattern, message) => ({ selector: `ImportExpression[source.value=/${pattern.replaceAll("/", String.raw`\x2F`)}/]`, message });

const WEB_PATTERNS = [
  onlyOurs(["@etd/contract"], "The web app imports only @etd/contract of ours: never server code"),
  { group: ["@etd/contract/requests"], allowTypeImports: true, message: "The web app takes the request schemas' types only (`import type`): their values need Effect Schema (ADR 0012)." },
  { group: ["effect", "effect/*"], message: "The web bundle does not carry Effect (ADR 0012)." },
  CLIMBS_OUT,
];

// A later config object's options for a rule replace an earlier one's: each repeats the web's patterns.
const webBoundaries = () => [
  { files: ["web/src/**/*.{ts,tsx}"], rules: { [RULE]: ["error", { patterns: WEB_PATTERNS }] } },
  {
    files: ["web/src/lib/**/*.{ts,tsx}", "web/src/components/**/*.{ts,tsx}"],
    rules: {
      [RULE]: ["error", { patterns: [...WEB_PATTERNS, { regex: String.raw`^(\.\./)+features(/|$)`, message: "lib/ and components/ are shared by the features: they import none (ADR 0030)." }] }],
    },
  },
  ...WEB_FEATURES.map((feature) => {
    const others = intoFeaturesPattern(WEB_FEATURES.filter((other) => other !== feature));
    const message = "A feature imports no other feature: move what they share to web/src/lib/ or web/src/components/ (ADR 0030).";
    return {
      files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
      rules: {
        [RULE]: ["error", { patterns: [...WEB_PATTERNS, { regex: others, message }] }],
        "no-restricted-syntax": ["error", importExpressionInto(others, message)],
      },
    };
  }),
];

const importBoundaries = () => [
  {
    files: ["events/src/**/*.ts"],
    rules: { [RULE]: ["error", { patterns: [onlyOurs([], "The event catalogue imports nothing of ours"), CLIMBS_OUT] }] },
  },
  {
    // The words the web app receives through the contract: no imports at all, so no schema library.
    files: ["events/src/vocabulary.ts"],
    rules: { [RULE]: ["error", { patterns: [{ regex: ".", message: "The vocabulary is plain constants: it imports nothing (ADR 0012)." }] }] },
  },
  {
    files: ["contract/src/requests/**/*.ts"],
    rules: { [RULE]: ["error", { patterns: [onlyOurs(["@etd/events"], "The contract imports only the event catalogue of ours"), CLIMBS_OUT] }] },
  },
  {
    // The contract's entry point is what the web app imports at run time: plain data and types.
    files: ["contract/src/**/*.ts"],
    ignores: ["contract/src/requests/**"],
    rules: {
      [RULE]: [
        "error",
        {
          patterns: [
            onlyOurs(["@etd/events"], "The contract imports only the event catalogue of ours"),
            { regex: "^@etd/events$", allowTypeImports: true, message: "At run time the contract's entry takes only @etd/events/vocabulary: the web app loads it (ADR 0012)." },
            { group: ["effect", "effect/*"], message: "The contract's entry is plain data (the web bundle must not carry Effect); schemas go in requests/ (ADR 0012)." },
            CLIMBS_OUT,
          ],
        },
      ],
    },
  },
  {
    files: ["infra/event-store/src/**/*.ts"],
    rules: { [RULE]: ["error", { patterns: [onlyOurs(["@etd/events"], "The event store stands on the event catalogue only"), CLIMBS_OUT] }] },
  },
  {
    // An adapter to an outside system (ADR 0016): at the bottom, like the store.
    files: ["infra/mail/src/**/*.ts"],
    rules: { [RULE]: ["error", { patterns: [onlyOurs(["@etd/events"], "The mail adapters stand on the event catalogue only"), CLIMBS_OUT] }] },
  },
  {
    files: ["services/write/src/**/*.ts"],
    rules: { [RULE]: ["error", { patterns: [onlyOurs(["@etd/events", "@etd/event-store", "@etd/telemetry"], "The write side imports only the events, the store and the traces"), CLIMBS_OUT] }] },
  },
  {
    files: ["projections/src/**/*.ts"],
    rules: {
      [RULE]: [
        "error",
        { patterns: [onlyOurs(["@etd/events", "@etd/event-store", "@etd/contract", "@etd/telemetry"], "The read models import only the events, the store, the contract and the traces"), CLIMBS_OUT] },
      ],
    },
  },
  {
    files: ["services/demo/src/**/*.ts"],
    rules: { [RULE]: ["error", { patterns: [onlyOurs(["@etd/events", "@etd/write"], "The demo fixtures import only the events and the write side"), CLIMBS_OUT] }] },
  },
  {
    // Adapters to outside systems (ADR 0016, 0035): at the bottom, like the store.
    // The traces (ADR 0041) too: every layer may record spans, so they stand below all of them.
    files: ["infra/storage/src/**/*.ts", "infra/pdf/src/**/*.ts", "infra/telemetry/src/**/*.ts"],
    rules: { [RULE]: ["error", { patterns: [onlyOurs([], "An adapter imports nothing of ours"), CLIMBS_OUT] }] },
  },
  {
    files: ["services/documents/src/**/*.ts"],
    rules: {
      [RULE]: [
        "error",
        { patterns: [onlyOurs(["@etd/events", "@etd/event-store", "@etd/contract", "@etd/projections", "@etd/pdf"], "The documents render from the log and the read models, beside the write side"), CLIMBS_OUT] },
      ],
    },
  },
  // The roles (ADR 0035): each stands on the layers below it, none on another role; the process
  // (services/server) composes them.
  {
    files: ["services/api/src/**/*.ts"],
    rules: { [RULE]: ["error", { patterns: [onlyOurs(BELOW_THE_ROLES, "The API role stands on the layers below it: never on another role, the process, the web app or test tooling"), CLIMBS_OUT] }] },
  },
  {
    files: ["services/reactors/src/**/*.ts"],
    rules: { [RULE]: ["error", { patterns: [onlyOurs(BELOW_THE_ROLES, "The reactors stand on the layers below them: never on another role or the process"), CLIMBS_OUT] }] },
  },
  {
    files: ["services/relay/src/**/*.ts"],
    rules: { [RULE]: ["error", { patterns: [onlyOurs(BELOW_THE_ROLES, "The relay stands on the layers below it: never on another role or the process"), CLIMBS_OUT] }] },
  },
  {
    files: ["services/server/src/**/*.ts"],
    rules: {
      [RULE]: [
        "error",
        {
          patterns: [
            onlyOurs([...BELOW_THE_ROLES, "@etd/api", "@etd/reactors", "@etd/relay"], "The process composes the roles and what they stand on: never the web app or test tooling"),
            { group: ["@etd/api/internal/*"], message: "The process takes the API's entry only; its internals are for tests (ADR 0035)." },
            CLIMBS_OUT,
          ],
        },
      ],
    },
  },
  ...webBoundaries(),
];

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "data/**", ".turbo/**", "**/*.js", ".puppeteerrc.cjs"] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Errors a user can cause are values; anything thrown must be an Error with a stack.
      "@typescript-eslint/only-throw-error": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Port methods return promises even where an adapter has nothing to await.
      "@typescript-eslint/require-await": "off",
      // Test files assert on loosely-typed JSON bodies.
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
    },
  },
  {
    // A pattern that backtracks or moves super-linearly lets one long input hold the whole process
    // (issue 25: an e-mail pattern took 11 s on one 160 kB sign-in). Every pattern in the tree.
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
      "regexp/no-misleading-capturing-group": "error",
    },
  },
  // The layers (ADR 0012): which workspace's source may import which of ours. Tests, benchmarks and
  // scripts are not limited (the web app's browser tests start the API).
  ...importBoundaries(),
  {
    // Tests read JSON answers as a client would: loosely typed.
    files: ["**/test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
    },
  },
);
