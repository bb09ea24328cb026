import {
  decodeEvent,
  definitionOf,
  type EventMetadata,
  type EventOfType,
  type EventType,
  IsoDate,
  IsoDateTime,
  type IntakeStatus,
  type OrderApplication,
  OrderId,
  type OrderPersonalData,
  type OrderStatus,
  type StaffRef,
} from "@etd/events";
import * as Result from "effect/Result";
import type { ActingStaff, AddRemark, PlaceOrder } from "../../src/index.ts";
import { customerMetadata, MARIA, ref, staffMetadata, systemMetadata } from "./metadata.ts";

export const ORDER_ID = OrderId.make("100234");
export const CUSTOMER_EMAIL = "juan.delacruz@example.com";

/**
 * Builds a stored-looking event and reads it back through the catalogue's codec, so every
 * `given` history is made of events the real store could hand a decider.
 */
export const storedEvent = <T extends EventType>(
  type: T,
  data: object,
  metadata: EventMetadata,
): EventOfType<T> => {
  const definition = definitionOf(type);
  if (definition === undefined) throw new Error(`No event type ${type}`);
  const result = decodeEvent({ type, schemaVersion: definition.version, data, metadata });
  if (Result.isFailure(result)) throw result.failure;
  return result.success as EventOfType<T>;
};

export const APPLICATION: OrderApplication = {
  transportation_type: "air",
  travel_type: "arrival",
  date_of_travel: "2025-03-21",
};

export const PERSONAL: OrderPersonalData = {
  citizenship: "Philippines",
  name_of_airline: "Philippine Airlines",
  flight_number: "PR 103",
  first_name: "Juan",
  last_name: "Dela Cruz",
  email: CUSTOMER_EMAIL,
  phone_number: "9171234567",
  passport_number: "P1234567A",
};

export const placeOrder = (overrides: Partial<PlaceOrder> = {}): PlaceOrder => ({
  type: "PlaceOrder",
  orderId: ORDER_ID,
  processingMode: "standard",
  landingDomain: "primary",
  processingDate: IsoDate.make("2025-03-14"),
  createdAt: IsoDateTime.make("2025-03-14T07:59:48.000Z"),
  application: APPLICATION,
  personal: PERSONAL,
  ...overrides,
});

/** What the customer paid, as intake records it (ADMIN-6's invoice states it). */
export const PAYMENT = { amount: "49.00", currency: "USD" } as const;

/** An invoice the year's register issued for ORDER_ID, as Send Invoice passes it to the decider. */
export const INVOICE = {
  number: "2025-000001",
  issuedAt: IsoDateTime.make("2025-03-15T09:00:00.000Z"),
  gatewayName: "Stripe",
  ...PAYMENT,
} as const;

/** `withPayment: false`: an order placed before payments were recorded. */
export const orderPlaced = (
  options: { readonly processingMode?: "standard" | "priority"; readonly erased?: boolean; readonly withPayment?: boolean } = {},
) =>
  storedEvent(
    "OrderPlaced",
    {
      orderId: ORDER_ID,
      processingMode: options.processingMode ?? "standard",
      landingDomain: "primary",
      processingDate: "2025-03-14",
      createdAt: "2025-03-14T07:59:48.000Z",
      application: APPLICATION,
      personal: options.erased === true ? { erased: true } : PERSONAL,
      ...(options.withPayment === false ? {} : { payment: PAYMENT }),
    },
    systemMetadata("order-intake", "2025-03-14T08:00:01.000Z"),
  );

export const orderAssigned = (
  assignee: StaffRef = ref(MARIA),
  occurredAt = "2025-03-14T10:04:12.000Z",
  from: IntakeStatus = "New",
) =>
  storedEvent(
    "OrderAssigned",
    { orderId: ORDER_ID, from, assignee },
    staffMetadata({ ...assignee, role: "Team" }, occurredAt),
  );

export const statusChanged = (
  from: OrderStatus,
  to: OrderStatus,
  by = MARIA,
  occurredAt = "2025-03-14T11:15:00.000Z",
) => storedEvent("OrderStatusChanged", { orderId: ORDER_ID, from, to }, staffMetadata(by, occurredAt));

export const movedToOriginalFolder = (from: OrderStatus, to: IntakeStatus, previousAssignee?: StaffRef) =>
  storedEvent(
    "OrderMovedToOriginalFolder",
    { orderId: ORDER_ID, from, to, ...(previousAssignee === undefined ? {} : { previousAssignee }) },
    staffMetadata(),
  );

export const refundRequested = (from: OrderStatus, refundDate = "2025-03-14") =>
  storedEvent("OrderRefundRequested", { orderId: ORDER_ID, from, refundDate }, staffMetadata());

export const refunded = () => storedEvent("OrderRefunded", { orderId: ORDER_ID }, staffMetadata());

export const chargebackMarked = (from: OrderStatus) =>
  storedEvent("OrderChargebackMarked", { orderId: ORDER_ID, from }, staffMetadata());

export const permanentlyDeleted = () =>
  storedEvent("OrderPermanentlyDeleted", { orderId: ORDER_ID, from: "Deleted" }, staffMetadata());

export const DOCUMENT = "etravel-100234.pdf";

export const documentUploaded = (
  fileName = DOCUMENT,
  uploadedBy: StaffRef = ref(MARIA),
  occurredAt = "2025-03-14T12:00:00.000Z",
) =>
  storedEvent(
    "DocumentUploaded",
    {
      orderId: ORDER_ID,
      contentType: "application/pdf",
      sizeBytes: 184_233,
      uploadedBy,
      provider: "AWS",
      personal: { to: CUSTOMER_EMAIL, fileName, storedPath: `docs/100234/${fileName}` },
    },
    staffMetadata({ ...uploadedBy, role: "Team" }, occurredAt),
  );

export const documentDownloaded = (occurredAt?: string) =>
  storedEvent(
    "DocumentDownloaded",
    { orderId: ORDER_ID, personal: { ip: "198.51.100.7", fileName: DOCUMENT } },
    customerMetadata(occurredAt),
  );

export const addRemark = (overrides: Partial<AddRemark> = {}): AddRemark => ({
  type: "AddRemark",
  orderId: ORDER_ID,
  remark: "Customer asked for a refund by phone.",
  remarkerName: "Maria Santos",
  whatsapp: false,
  telephone: false,
  statusRefund: false,
  voided: false,
  chargeBack: false,
  reportError: false,
  today: IsoDate.make("2025-03-15"),
  actor: MARIA,
  ...overrides,
});

/** The remark's event for `addRemark(overrides)`. */
export const remarkAdded = (overrides: Partial<AddRemark> = {}) => {
  const { type: _type, today: _today, actor: _actor, remark, ...data } = addRemark(overrides);
  return { type: "RemarkAdded" as const, data: { ...data, personal: { remark } } };
};

/** A realistic history that leaves a standard order, assigned to Maria (or `assignee`), in `status`. */
export const historyIn = (status: OrderStatus, assignee: ActingStaff = MARIA) => {
  const assigned = [orderPlaced(), orderAssigned(ref(assignee))];
  switch (status) {
    case "New":
      return [orderPlaced()];
    case "Priority":
      return [orderPlaced({ processingMode: "priority" })];
    case "Pending":
      return assigned;
    case "Refund":
      return [...assigned, refundRequested("Pending")];
    case "CompletedRefund":
      return [...assigned, refundRequested("Pending"), refunded()];
    case "ChargeBack":
      return [...assigned, chargebackMarked("Pending")];
    default:
      return [...assigned, statusChanged("Pending", status)];
  }
};
