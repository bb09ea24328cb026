import { type EventMetadata, IsoDateTime, type StaffRef, StaffId } from "@etd/events";
import type { ActingStaff } from "../../src/index.ts";

/** The team the specifications are about. */
export const MARIA: ActingStaff = { id: StaffId.make("7f3c2a"), name: "Maria Santos", role: "Manager" };
export const PAOLO: ActingStaff = { id: StaffId.make("9b1e44"), name: "Paolo Reyes", role: "Team" };
export const GRACE: ActingStaff = { id: StaffId.make("1"), name: "Grace Lim", role: "Admin" };

/** How an order names a staff member (assignee, uploader): no role. */
export const ref = (staff: ActingStaff): StaffRef => ({ id: staff.id, name: staff.name });

export const DEFAULT_TIME = "2025-03-14T09:26:53.589Z";

export const at = (iso: string): IsoDateTime => IsoDateTime.make(iso);

/** A signed-in staff member's request, as the API's handler stamps it. */
export const staffMetadata = (staff: ActingStaff = MARIA, occurredAt: string = DEFAULT_TIME): EventMetadata => ({
  actor: { kind: "staff", ...staff },
  correlationId: "req-01JQ8Z6W3K4V5",
  requestIp: "203.0.113.24",
  occurredAt: at(occurredAt),
});

export const systemMetadata = (name: string, occurredAt: string = DEFAULT_TIME): EventMetadata => ({
  actor: { kind: "system", name },
  correlationId: "c0a8012e-5b1f-4c7e-9d2a-3f4e5a6b7c8d",
  occurredAt: at(occurredAt),
});

export const customerMetadata = (occurredAt: string = DEFAULT_TIME): EventMetadata => ({
  actor: { kind: "customer" },
  correlationId: "req-01JQ9A0B1C2D3",
  occurredAt: at(occurredAt),
});
