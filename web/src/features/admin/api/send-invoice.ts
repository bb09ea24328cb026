import type { Body, SendInvoiceRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";

/** ADMIN-6: e-mails the order's invoice to the customer's address. */
export const sendInvoice = (orderId: string) => apiRequest("POST", "/admin/send-invoice", { body: { orderId } satisfies Body<typeof SendInvoiceRequest> });
