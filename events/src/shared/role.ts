import * as Schema from "effect/Schema";
import { ROLES } from "../vocabulary.ts";

/** Staff roles (000 §6); the list is in `vocabulary.ts`. */
export const Role = Schema.Literals(ROLES);
export type Role = typeof Role.Type;
