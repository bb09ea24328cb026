import type { IsoDate } from "@etd/events";

/*
 * The request fields and their messages are the wire contract's (@etd/contract/requests); what
 * stays here is the server's own reading of the clock.
 */

/** Today's date in UTC, as deciders take it. */
export const utcDay = (now: Date): IsoDate => now.toISOString().slice(0, 10) as IsoDate;
