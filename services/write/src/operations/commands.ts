import type { ActingStaff } from "../shared/acting-staff.ts";

/*
 * Commands on the single `operations` stream (issue 28, ADR 0039): what an Admin asks of the
 * running system. The API names a read model or reactor only once it knows it exists, and says
 * what it saw of it (the decider has no I/O).
 */

/** Build a read model again beside its live build. */
export interface RequestRebuild {
  readonly type: "RequestRebuild";
  readonly projection: string;
  /** The read model's version running now: the one the new build is made of. */
  readonly version: number;
  /** A newer build of it is already catching up (a rebuild under way). */
  readonly building: boolean;
  readonly actor: ActingStaff;
}

/** Make a failing reactor try again now. */
export interface RequestReactorRetry {
  readonly type: "RequestReactorRetry";
  readonly reactor: string;
  /** It failed and waits out a back-off (a retry is due): otherwise there is nothing to retry. */
  readonly waiting: boolean;
  readonly actor: ActingStaff;
}

export type OperationCommand = RequestRebuild | RequestReactorRetry;
