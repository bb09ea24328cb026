import type * as SchemaAST from "effect/SchemaAST";
import type * as SchemaIssue from "effect/SchemaIssue";
import { REQUIRED_MESSAGE } from "./wire-values.ts";

/** One thing wrong with a place-order request: the field (a path like `a[0].b`) and why. */
export interface IntakeFieldError {
  readonly field: string;
  readonly message: string;
}

/**
 * The customer-facing site sent a request we cannot place as an order. A value, not a fault:
 * the API answers it with a 400 listing every field error at once, so the sender can fix them all.
 */
export class IntakeError extends Error {
  readonly _tag = "IntakeError";
  readonly errors: ReadonlyArray<IntakeFieldError>;
  constructor(errors: ReadonlyArray<IntakeFieldError>) {
    super(
      `The order cannot be placed: ${errors.map((e) => `${e.field}: ${e.message}`).join("; ")}`,
    );
    this.name = "IntakeError";
    this.errors = errors;
  }
}

/** The field name used for a problem with the body as a whole (not a JSON object). */
export const BODY_FIELD = "body";

/** Keys the back office owns: a customer's request must not set them (001 §3 Processing). */
const BACK_OFFICE_KEYS = new Set(["process_status", "assign_to", "process_month"]);

/**
 * Flattens a schema issue into one entry per failing field. A value-level `message` annotation
 * (every wire value has one) wins over the details of its parts, so the sender reads what the
 * field accepts rather than why each accepted form did not match.
 */
export function intakeErrorsOf(issue: SchemaIssue.Issue): IntakeFieldError[] {
  return collect(issue, []);
}

function collect(issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): IntakeFieldError[] {
  const at = (message: string): IntakeFieldError[] => [{ field: fieldName(path), message }];
  switch (issue._tag) {
    case "Pointer":
      return collect(issue.issue, [...path, ...issue.path]);
    case "Composite":
      return issue.issues.flatMap((inner) => collect(inner, path));
    case "Encoding":
      return collect(issue.issue, path);
    case "Filter": {
      const message = messageIn(issue.filter.annotations);
      return message === undefined ? collect(issue.issue, path) : at(message);
    }
    case "AnyOf": {
      const message = messageIn(issue.ast.annotations);
      if (message !== undefined) return at(message);
      if (issue.issues.length > 0) return issue.issues.flatMap((inner) => collect(inner, path));
      return at(`Must be ${expectedIn(issue.ast)}.`);
    }
    case "MissingKey":
      return at(messageIn(issue.annotations, "messageMissingKey") ?? REQUIRED_MESSAGE);
    case "UnexpectedKey": {
      const key = path.at(-1);
      return at(
        typeof key === "string" && BACK_OFFICE_KEYS.has(key) && path.length === 1
          ? "Set by the back office; a place-order request cannot set it."
          : "Unknown field; a place-order request does not have it.",
      );
    }
    case "InvalidType":
      return at(messageIn(issue.ast.annotations) ?? `Must be ${expectedIn(issue.ast)}.`);
    case "InvalidValue":
    case "Forbidden":
      return at(messageIn(issue.annotations) ?? "Is not a valid value.");
    case "OneOf":
      return at(messageIn(issue.ast.annotations) ?? "Is not a valid value.");
  }
}

function messageIn(
  annotations: { readonly [key: string]: unknown } | undefined,
  key = "message",
): string | undefined {
  const message = annotations?.[key];
  return typeof message === "string" ? message : undefined;
}

function expectedIn(ast: SchemaAST.AST): string {
  const expected = messageIn(ast.annotations, "expected");
  if (expected !== undefined) return expected;
  switch (ast._tag) {
    case "Objects":
      return "a JSON object";
    case "Arrays":
      return "a list";
    case "String":
      return "text";
    case "Number":
      return "a number";
    case "Boolean":
      return "true or false";
    case "Literal":
      return JSON.stringify(ast.literal);
    default:
      return "a valid value";
  }
}

/** `custom_declaration_details[0].details[1].x`; the empty path is the body itself. */
function fieldName(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return BODY_FIELD;
  return path
    .map((key, i) => (typeof key === "number" ? `[${String(key)}]` : `${i === 0 ? "" : "."}${String(key)}`))
    .join("");
}
