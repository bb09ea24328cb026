import * as Schema from "effect/Schema";
import type { Endpoint } from "./http/endpoint.ts";
import { NUL, USABLE_TEXT_PATTERN } from "./http/clean-text.ts";
import { PERMISSIONS } from "@etd/contract";

/*
 * The OpenAPI document, generated from the same endpoint table and request schemas (bodies,
 * queries, path parameters, multipart fields) the server decodes with, so the two cannot drift
 * apart (ADR 0031). Each operation lists exactly the statuses its endpoint declares it answers
 * (the layer's, derived from the guard and the input, and the handler's own), each with the
 * envelope, or the file a success answers. Served at GET /api/openapi.json.
 */

const ENVELOPE = {
  type: "object",
  required: ["status", "message", "data"],
  properties: {
    status: { type: "integer", enum: [0, 1], description: "1 success, 0 failure (CROSS-1)" },
    message: { type: "string", description: "Shown to the user as a toast" },
    data: { description: "The answer's payload; for commands, `position` to wait for (read-your-writes)" },
  },
} as const;

/** Every answer but a success is a refusal: status 0, and the message says why. */
const REFUSAL = { ...ENVELOPE, properties: { ...ENVELOPE.properties, status: { type: "integer", enum: [0], description: "0: refused (CROSS-1)" } } } as const;

const json = (schema: string) => ({ "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } });

/** A success's file: its media type without parameters, as content negotiation names it. */
const fileContent = (mediaType: string) => ({
  [mediaType.split(";")[0]!.trim()]: { schema: mediaType.startsWith("application/pdf") ? { type: "string", format: "binary" } : { type: "string" } },
});

/** JSON Schema's `$ref`s point into `$defs`; OpenAPI keeps shared schemas under components. */
const rehome = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(rehome);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === "$ref" && typeof inner === "string" ? inner.replace("#/$defs/", "#/components/schemas/") : rehome(inner),
      ]),
    );
  }
  return value;
};

type JsonSchema = { readonly [key: string]: unknown };

/**
 * The endpoint layer refuses a request holding unusable text anywhere (holdsOnlyUsableText): every
 * string schema of a request states what JSON Schema can of that rule.
 */
const withUsableText = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(withUsableText);
  if (!schema || typeof schema !== "object") return schema;
  const walked = Object.fromEntries(
    Object.entries(schema as JsonSchema).map(([key, inner]) => [key, key === "enum" || key === "examples" ? inner : withUsableText(inner)]),
  );
  const type = walked.type;
  const isString = type === "string" || (Array.isArray(type) && type.includes("string"));
  if (!isString) return walked;
  // A pattern of its own generates directly; beside another pattern, the one character is excluded.
  if (walked.pattern === undefined) return { ...walked, pattern: USABLE_TEXT_PATTERN };
  if (walked.not === undefined) return { ...walked, not: { pattern: NUL } };
  return { ...walked, allOf: [...((walked.allOf as readonly unknown[] | undefined) ?? []), { not: { pattern: NUL } }] };
};

/** The parts of a request the layer decodes, as JSON Schema: unknown keys are refused where the decoder refuses them. */
const requestSchema = (schema: Schema.Top, definitions: Record<string, unknown>): JsonSchema => {
  const document = Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error" });
  Object.assign(definitions, withUsableText(rehome(document.definitions)));
  return withUsableText(rehome(document.schema)) as JsonSchema;
};

/** Whether the decoder takes a request with no body (it decodes a missing body as `{}`). */
const acceptsNoBody = (endpoint: Endpoint) => endpoint.body !== undefined && !endpoint.readsInputItself && Schema.is(endpoint.body)({});

export const openApiDocument = (endpoints: readonly Endpoint[]) => {
  const schemas: Record<string, unknown> = { Envelope: ENVELOPE, Refusal: REFUSAL };
  /** A declared query or path schema as OpenAPI parameters, one per field. */
  const parametersOf = (schema: Schema.Top | undefined, where: "query" | "path") => {
    if (schema === undefined) return [];
    const root = requestSchema(schema, schemas) as { readonly properties?: Record<string, unknown>; readonly required?: readonly string[] };
    return Object.entries(root.properties ?? {}).map(([name, fieldSchema]) => ({
      name,
      in: where,
      required: where === "path" || (root.required ?? []).includes(name),
      schema: fieldSchema,
    }));
  };
  const requestBodyOf = (endpoint: Endpoint) => {
    if (endpoint.form !== undefined) {
      const fields = requestSchema(endpoint.form.fields, schemas) as { readonly properties?: object; readonly required?: readonly string[] };
      const file = { type: "string", contentMediaType: "application/octet-stream", description: "A PDF or an image (PNG, JPEG), told by its first bytes" };
      const schema = { ...fields, properties: { ...fields.properties, [endpoint.form.file]: file }, required: [...(fields.required ?? []), endpoint.form.file] };
      return { required: true, content: { "multipart/form-data": { schema } } };
    }
    if (endpoint.body === undefined) return undefined;
    const schema = requestSchema(endpoint.body, schemas);
    // The JSON parser is strict: a body is an object or an array.
    const body = schema.type === undefined && schema.$ref === undefined ? { type: ["object", "array"], ...schema } : schema;
    return { required: !acceptsNoBody(endpoint), content: { "application/json": { schema: body } } };
  };
  const responsesOf = (endpoint: Endpoint) =>
    Object.fromEntries(
      Object.entries(endpoint.answers).map(([status, description]) => [
        status,
        { description, content: status === "200" && endpoint.file !== undefined ? fileContent(endpoint.file) : json(status === "200" ? "Envelope" : "Refusal") },
      ]),
    );

  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const openApiPath = `/api${endpoint.path}`.replace(/:([A-Za-z]+)/g, "{$1}");
    const parameters = [...parametersOf(endpoint.params, "path"), ...parametersOf(endpoint.query, "query")];
    const requestBody = requestBodyOf(endpoint);
    const roles = endpoint.guard === "public" || endpoint.guard === "service" ? endpoint.guard : PERMISSIONS[endpoint.guard].join(", ");
    paths[openApiPath] ??= {};
    paths[openApiPath][endpoint.method] = {
      summary: endpoint.summary,
      description: `Allowed: ${roles}.`,
      security: endpoint.guard === "public" ? [] : endpoint.guard === "service" ? [{ serviceToken: [] }] : [{ staffToken: [] }],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: responsesOf(endpoint),
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Travel declaration back office API", version: "1.0.0" },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        staffToken: { type: "apiKey", in: "header", name: "Authorization", description: "The sign-in token, with no prefix or as `Bearer <token>`" },
        serviceToken: { type: "http", scheme: "bearer", description: "The customer-facing site's intake token (INTAKE_TOKEN)" },
      },
    },
  };
};
