import * as Schema from "effect/Schema";
import type { Endpoint } from "./http/endpoint.ts";
import { PERMISSIONS } from "@etd/contract";

/*
 * The OpenAPI document, generated from the same endpoint table and request schemas (bodies,
 * queries, path parameters) the server decodes with, so the two cannot drift apart. Served at
 * GET /api/openapi.json.
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

const response = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Envelope" } } } });

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

export const openApiDocument = (endpoints: readonly Endpoint[]) => {
  const schemas: Record<string, unknown> = { Envelope: ENVELOPE };
  /** A declared query or path schema as OpenAPI parameters, one per field. */
  const parametersOf = (schema: Schema.Top | undefined, where: "query" | "path") => {
    if (schema === undefined) return [];
    const document = Schema.toJsonSchemaDocument(schema);
    Object.assign(schemas, rehome(document.definitions));
    const root = document.schema as { readonly properties?: Record<string, unknown>; readonly required?: readonly string[] };
    return Object.entries(root.properties ?? {}).map(([name, fieldSchema]) => ({
      name,
      in: where,
      required: where === "path" || (root.required ?? []).includes(name),
      schema: rehome(fieldSchema),
    }));
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const openApiPath = `/api${endpoint.path}`.replace(/:([A-Za-z]+)/g, "{$1}");
    let requestBody: unknown;
    if (endpoint.body) {
      const document = Schema.toJsonSchemaDocument(endpoint.body);
      Object.assign(schemas, rehome(document.definitions));
      requestBody = { required: true, content: { "application/json": { schema: rehome(document.schema) } } };
    }
    const parameters = [...parametersOf(endpoint.params, "path"), ...parametersOf(endpoint.query, "query")];
    const roles = endpoint.guard === "public" || endpoint.guard === "service" ? endpoint.guard : PERMISSIONS[endpoint.guard].join(", ");
    paths[openApiPath] ??= {};
    paths[openApiPath][endpoint.method] = {
      summary: endpoint.summary,
      description: `Allowed: ${roles}.`,
      security: endpoint.guard === "public" ? [] : endpoint.guard === "service" ? [{ serviceToken: [] }] : [{ staffToken: [] }],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        200: response("Success: status 1"),
        400: response("A field is missing or not valid; the message is the form's own"),
        ...(endpoint.guard === "public" ? {} : { 401: response("No token, or a bad or expired one"), 403: response("The role may not do this") }),
        404: response("The order or member does not exist"),
        409: response("The order changed first: the message names who and when"),
      },
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
