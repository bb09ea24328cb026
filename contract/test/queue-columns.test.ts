import { describe, expect, it } from "vitest";
import { QUEUE_KEYS, queueCellText, queueColumnsOf, QUEUE_COLUMNS, type QueueListRow } from "../src/index.ts";

const headers = (key: Parameters<typeof queueColumnsOf>[0]) => queueColumnsOf(key).map((column) => column.header);

/* QUEUE-3 and 001 §2: the columns each queue screen shows (Action is the web's own), one list for the tables and the CSV export (issue 16 D). */
describe("QUEUE-3 queue columns", () => {
  it("QUEUE-3: New and Priority add Departure Date, Contact Customer hides Telephone, the refund table has its own", () => {
    expect(headers("newOrder")).toEqual(["Order Id", "Name", "Email", "Telephone", "Arrival Date", "Date & Time", "Departure Date", "Status"]);
    expect(headers("priorityOrder")).toEqual(headers("newOrder"));
    expect(headers("pendingOrder")).toEqual(["Order Id", "Name", "Email", "Telephone", "Arrival Date", "Date & Time", "Status"]);
    expect(headers("contactCustomerOrder")).toEqual(["Order Id", "Name", "Email", "Arrival Date", "Date & Time", "Status"]);
    expect(headers("refundOrder")).toEqual(["Order Id", "Email", "Telephone", "Date & Time", "Refund Date", "Status"]);
    expect(headers("myOrder")).toEqual(["Order Id", "Name", "Email", "Telephone", "Date and Time", "Departure Date", "Status"]);
    expect(headers("chargeBack")).toEqual(headers("myOrder"));
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
