import { describe, expect, it } from "vitest";
import { durationText, dueText, dueUrgency, QUEUE_KEYS, queueCellText, queueColumnsOf, QUEUE_COLUMNS, queueListRow, type QueueListRow } from "../src/index.ts";

const headers = (key: Parameters<typeof queueColumnsOf>[0]) => queueColumnsOf(key).map((column) => column.header);

/* QUEUE-3 and 001 §2: the columns each queue screen shows (Action is the web's own), one list for the tables and the CSV export (issue 16 D). */
describe("QUEUE-3 queue columns", () => {
  it("QUEUE-3: New and Priority add Departure Date, Contact Customer hides Telephone, the refund table has its own; issue 27: Due before Status on New, Priority, Pending, Contact Customer, Customer Called and My Orders", () => {
    expect(headers("newOrder")).toEqual(["Order Id", "Name", "Email", "Telephone", "Arrival Date", "Date & Time", "Departure Date", "Due", "Status"]);
    expect(headers("priorityOrder")).toEqual(headers("newOrder"));
    expect(headers("pendingOrder")).toEqual(["Order Id", "Name", "Email", "Telephone", "Arrival Date", "Date & Time", "Due", "Status"]);
    expect(headers("completedOrder")).toEqual(["Order Id", "Name", "Email", "Telephone", "Arrival Date", "Date & Time", "Status"]);
    expect(headers("contactCustomerOrder")).toEqual(["Order Id", "Name", "Email", "Arrival Date", "Date & Time", "Due", "Status"]);
    expect(headers("refundOrder")).toEqual(["Order Id", "Email", "Telephone", "Date & Time", "Refund Date", "Status"]);
    expect(headers("myOrder")).toEqual(["Order Id", "Name", "Email", "Telephone", "Date and Time", "Departure Date", "Due", "Status"]);
    expect(headers("chargeBack")).toEqual(["Order Id", "Name", "Email", "Telephone", "Date and Time", "Departure Date", "Status"]);
    expect(headers("futureOrder")).toEqual(["Order ID", "Name", "Email", "Telephone", "Date and Time", "Processing Date", "Process Month", "Status"]);
    for (const key of QUEUE_KEYS) expect(headers(key)).not.toContain("Action");
  });

  it("QUEUE-3: a cell is the row's display value, the status with a capital first letter, nothing as empty", () => {
    const row = { status: "awaiting Govt", email: null, id: "100001" } as unknown as QueueListRow;
    expect(queueCellText(QUEUE_COLUMNS.status, row)).toBe("Awaiting Govt");
    expect(queueCellText(QUEUE_COLUMNS.email, row)).toBe("");
    expect(queueCellText(QUEUE_COLUMNS.orderId, row)).toBe("100001");
  });
});

/* QUEUE-6, 001 §3: a list row's display values come from its raw values, in the list's date styles. */
describe("QUEUE-6 list rows", () => {
  const raw = {
    order_id: "100001",
    process_status: "Refund",
    first_name: "Juan",
    middle_name: null,
    last_name: "Cruz",
    email: "juan@example.com",
    phone_number: "+63 9171234567",
    created_at: "2025-03-14T09:26:53.589Z",
    date_of_departure: "2025-03-21",
    date_of_travel: "March 20",
    refund_date: "2025-03-13",
    processing_date: "2025-04-02",
    process_month: "2025-04",
    assign_to: null,
    assign_to_id: null,
    processing_mode: "Priority Processing",
    landing_domain: "www.example-visa.com",
    citizenship: null,
    due_at: "2025-03-14T13:26:53.589Z",
    clock_state: "running",
    time_left_ms: null,
  };

  it("QUEUE-6: DD/MM/YYYY HH:mm:ss in UTC on most lists; the name joins its parts; the status as staff read it", () => {
    expect(queueListRow("allOrder")(raw)).toMatchObject({
      id: "100001",
      name: "Juan Cruz",
      telephone: "+63 9171234567",
      status: "Refund",
      date: "14/03/2025 09:26:53",
      departureDate: "21/03/2025",
      refundDate: "13/03/2025",
      processingDate: "02/04/2025",
      processMonth: "April 2025",
    });
  });

  it("QUEUE-6: MM-DD-YYYY on Priority; the refund list writes its Refund Date DD-MM-YYYY", () => {
    expect(queueListRow("priorityOrder")(raw)).toMatchObject({ date: "03-14-2025 09:26:53", departureDate: "03-21-2025", refundDate: "03-13-2025" });
    expect(queueListRow("refundOrder")(raw)).toMatchObject({ date: "14/03/2025 09:26:53", refundDate: "13-03-2025" });
  });

  it("a date the customer typed in another form is shown as typed; a missing one stays missing, as null or as empty text where the wire sends text", () => {
    const row = queueListRow("allOrder")({ ...raw, phone_number: null, refund_date: null });
    expect(row).toMatchObject({ arrivalDate: "March 20", refundDate: null, refund_date: null, telephone: "", assign_to: "", assign_to_id: null });
  });

  it("000 §3: the raw values come first, in the list item's order, then the display values", () => {
    expect(Object.keys(queueListRow("allOrder")(raw))).toEqual([
      ...Object.keys(raw),
      "id",
      "name",
      "telephone",
      "status",
      "date",
      "arrivalDate",
      "departureDate",
      "refundDate",
      "processingDate",
      "processMonth",
      "due",
    ]);
  });
});

/* Issue 27: the Due column, as the screen says it (counted from now) and as the export keeps it. */
describe("issue 27 the Due column", () => {
  const at = Date.parse("2025-03-14T12:00:00.000Z");
  const running = (dueAt: string) => ({ due_at: dueAt, clock_state: "running" as const, time_left_ms: null });

  it("says how long until due or how long overdue, in minutes, hours and days", () => {
    expect(dueText(running("2025-03-14T14:10:00.000Z"), at)).toBe("due in 2 h 10 min");
    expect(dueText(running("2025-03-14T11:25:00.000Z"), at)).toBe("overdue 35 min");
    expect(dueText(running("2025-03-14T12:00:30.000Z"), at)).toBe("due in less than 1 min");
    expect(dueText(running("2025-03-16T15:00:00.000Z"), at)).toBe("due in 2 d 3 h");
    expect(dueText({ due_at: null, clock_state: "paused", time_left_ms: 80 * 60_000 }, at)).toBe("paused, 1 h 20 min left");
    expect(dueText({ due_at: null, clock_state: "paused", time_left_ms: -5 * 60_000 }, at)).toBe("paused, overdue 5 min");
    expect(dueText({ due_at: null, clock_state: "met", time_left_ms: null }, at)).toBe("met");
    expect(dueText({ due_at: null, clock_state: "stopped", time_left_ms: null }, at)).toBe("stopped");
    expect(dueText(running("2025-03-15T12:30:00.000Z"), at)).toBe("due in 24 h 30 min");
    expect(dueText(running("2025-03-17T13:05:59.000Z"), at)).toBe("due in 3 d 1 h 5 min");
  });

  it("one way to say a length of time, everywhere staff read one: whole minutes, zero units left out, days from two days", () => {
    expect(durationText(3 * 3_600_000)).toBe("3 h");
    expect(durationText(24 * 3_600_000)).toBe("24 h");
    expect(durationText(48 * 3_600_000)).toBe("2 d");
    expect(durationText(-(45 * 60_000 + 59_999))).toBe("45 min");
    expect(durationText(59_999)).toBe("less than 1 min");
  });

  it("urgency: overdue at the due moment, soon within the hour, later after it; a clock that does not run is its state", () => {
    expect(dueUrgency(running("2025-03-14T12:00:00.000Z"), at)).toBe("overdue");
    expect(dueUrgency(running("2025-03-14T13:00:00.000Z"), at)).toBe("soon");
    expect(dueUrgency(running("2025-03-14T13:00:00.001Z"), at)).toBe("later");
    expect(dueUrgency({ due_at: null, clock_state: "paused", time_left_ms: 1 }, at)).toBe("paused");
  });

  it("the export's Due cell stays true: a running clock's due moment in the list's date style, else the state in words", () => {
    const raw = { order_id: "1", process_status: "New", processing_date: "2025-03-14", process_month: "2025-03", created_at: "2025-03-14T09:00:00.000Z" };
    expect(queueCellText(QUEUE_COLUMNS.due, queueListRow("newOrder")({ ...raw, ...running("2025-03-14T13:26:53.589Z") } as never))).toBe("14/03/2025 13:26:53");
    expect(queueCellText(QUEUE_COLUMNS.due, queueListRow("priorityOrder")({ ...raw, ...running("2025-03-14T13:26:53.589Z") } as never))).toBe("03-14-2025 13:26:53");
    expect(queueCellText(QUEUE_COLUMNS.due, queueListRow("pendingOrder")({ ...raw, due_at: null, clock_state: "paused", time_left_ms: 3_600_000 } as never))).toBe("paused, 1 h left");
  });
});
