import type { ActingStaff } from "../shared/acting-staff.ts";

/* Commands on the single `service-levels` stream (issue 27, ADR 0036). */

/** An Admin sets the time allowed from payment to the document, per kind of order, in minutes. */
export interface SetServiceLevelPolicy {
  readonly type: "SetServiceLevelPolicy";
  readonly allowedMinutes: { readonly standard: number; readonly priority: number; readonly future: number };
  /** A signed-in member, or the system itself (demo data). */
  readonly actor: ActingStaff | { readonly system: string };
}

export type ServiceLevelCommand = SetServiceLevelPolicy;
