import { Schema } from "effect";

/** Staff roles (000 §6); the names are the spec's own, shown to users as they are. */
export const Role = Schema.Literals(["Admin", "Manager", "Team", "Telecaller", "Night Staff"]);
export type Role = typeof Role.Type;
