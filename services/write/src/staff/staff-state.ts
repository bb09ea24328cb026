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
  /** Whether the member signs in with a second factor (AUTH-3); the secret itself is not state. */
  readonly twoFactor: boolean;
  /** The most open assigned orders Take next lets the member hold (issue 27); undefined: no limit. */
  readonly capacity: number | undefined;
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
        twoFactor: false,
        capacity: undefined,
      };
    case "StaffMemberUpdated":
      return state.exists ? { ...state, ...event.data } : state;
    case "StaffMemberDeleted":
      return state.exists ? { ...state, deleted: true } : state;
    case "StaffCapacitySet":
      return state.exists ? { ...state, capacity: event.data.capacity } : state;
    case "PasswordChanged":
      return state.exists ? { ...state, passwordChangedAt: event.metadata.occurredAt } : state;
    case "TwoFactorEnabled":
      return state.exists ? { ...state, twoFactor: true } : state;
    case "TwoFactorReset":
      return state.exists ? { ...state, twoFactor: false } : state;
    case "RecoveryCodeUsed":
    case "DataExported":
      return state;
  }
};
