import type { IsoDateTime, Role, StaffEvent, StaffId } from "@etd/events";

export interface NoStaffMember {
  readonly exists: false;
}

export interface KnownStaffMember {
  readonly exists: true;
  readonly staffId: StaffId;
  readonly name: string;
  readonly email: string;
  readonly role: Role;
  /** A deleted member keeps its stream (the audit needs it) but can do nothing more. */
  readonly deleted: boolean;
  readonly passwordChangedAt: IsoDateTime | undefined;
}

export type StaffState = NoStaffMember | KnownStaffMember;

export const initialStaffState: StaffState = { exists: false };

export const evolveStaff = (state: StaffState, event: StaffEvent): StaffState => {
  switch (event.type) {
    case "StaffMemberAdded":
      return {
        exists: true,
        ...event.data,
        deleted: false,
        passwordChangedAt: undefined,
      };
    case "StaffMemberUpdated":
      return state.exists ? { ...state, ...event.data } : state;
    case "StaffMemberDeleted":
      return state.exists ? { ...state, deleted: true } : state;
    case "PasswordChanged":
      return state.exists ? { ...state, passwordChangedAt: event.metadata.occurredAt } : state;
  }
};
