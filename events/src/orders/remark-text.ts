import { isErased } from "../shared/personal-data.ts";
import type { RemarkAdded } from "./order-events.ts";

/*
 * A remark's text is personal (staff quote phone and passport numbers in it). Readers show it
 * while the order's key exists and "" once the order is erased: an empty string, not a
 * placeholder, so no reader can mistake a marker for something staff wrote (the form refuses a
 * blank remark, so "" never was a real one).
 */

/** What a reader shows for an erased remark. */
export const ERASED_REMARK = "";

/** The remark's text, or `ERASED_REMARK` once its personal part is erased. */
export const remarkText = (data: RemarkAdded["data"]): string =>
  isErased(data.personal) ? ERASED_REMARK : data.personal.remark;

/**
 * True once the stream holds a permanent delete. Some older events kept personal values in the
 * clear (remarks before version 3 among them), so destroying the key does not hide them: a reader
 * of the whole stream checks this and passes each event through `withPersonalErased`.
 */
export const isPermanentlyDeleted = (events: Iterable<{ readonly type: string }>): boolean => {
  for (const event of events) if (event.type === "OrderPermanentlyDeleted") return true;
  return false;
};
