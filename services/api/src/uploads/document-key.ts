import { isOrderId, type OrderId } from "@etd/events";
import { storageKey, type StorageKey } from "@etd/storage";
import type { UploadRefusal } from "./upload-result.ts";


/** Where an order's finished document lives (001 §7: linked under `uploads/docs/{orderId}/{fileName}`). */
export const documentKey = (orderId: OrderId, fileName: string): StorageKey | undefined =>
  storageKey("docs", orderId, fileName);

/**
 * A `placeFile` for `readUpload`: the order id comes from a form field, so it is checked to be an
 * order id (6 to 20 digits) before it becomes part of a path.
 */
export const placeOrderDocument =
  (orderIdField = "orderId") =>
  (fields: Readonly<Record<string, string>>, fileName: string): StorageKey | UploadRefusal => {
    const orderId = fields[orderIdField]?.trim() ?? "";
    if (orderId === "") return { ok: false, status: 400, field: orderIdField, message: "Please enter your order id." };
    if (!isOrderId(orderId)) {
      return { ok: false, status: 400, field: orderIdField, message: "Order Id must be 6 to 20 digits." };
    }
    const key = documentKey(orderId, fileName);
    // safeFileName always gives a valid segment; a caller passing its own name gets a refusal.
    return key ?? { ok: false, status: 400, field: orderIdField, message: "The file name cannot be stored." };
  };
