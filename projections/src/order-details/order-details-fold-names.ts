import type { Role } from "@etd/events";
import type { ProjectedEvent } from "../engine/projection.ts";
import type { TableFold } from "./order-details-fold-shared.ts";

/* audit_names: staff and gateways as the timeline knows them, to name the target of an event by id. */

export interface NameRow {
  /** `staff:<id>` or `gateway:<id>`. */
  readonly ref: string;
  readonly name: string;
  readonly role: Role | null;
  readonly email: string | null;
}

export const staffRef = (id: string): string => `staff:${id}`;
export const gatewayRef = (id: string): string => `gateway:${id}`;

export interface NamesFold extends TableFold<NameRow> {
  /** The name as of the events stepped so far (the audit reads it before stepping an event). */
  readonly known: (ref: string) => NameRow | undefined;
}

export const foldNames = (loaded: readonly NameRow[]): NamesFold => {
  const names = new Map(loaded.map((row) => [row.ref, row]));
  const changed = new Set<string>();
  const saveName = (row: NameRow) => {
    names.set(row.ref, row);
    changed.add(row.ref);
  };

  const step = ({ event }: ProjectedEvent) => {
    switch (event.type) {
      case "StaffMemberAdded":
      case "StaffMemberUpdated":
        saveName({ ref: staffRef(event.data.staffId), name: event.data.name, role: event.data.role, email: event.data.email });
        break;
      case "GatewayRegistered":
        saveName({ ref: gatewayRef(event.data.gatewayId), name: event.data.gatewayName, role: null, email: null });
        break;
    }
  };

  return { step, known: (ref) => names.get(ref), changes: () => [...changed].map((ref) => names.get(ref)!) };
};
