import type { Actor, Role, StaffId } from "@etd/events";

/** The signed-in staff member behind a command, for rules that depend on who or which role. */
export interface ActingStaff {
  readonly id: StaffId;
  readonly name: string;
  readonly role: Role;
}

/** How an event's actor is named in messages ("Maria Santos moved it…"). */
export const actorName = (actor: Actor): string => {
  switch (actor.kind) {
    case "staff":
    case "system":
      return actor.name;
    case "customer":
      return "the customer";
  }
};
