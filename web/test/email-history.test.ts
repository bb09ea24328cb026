import "./support/memory-storage.ts";
import type { MailHistoryEntry } from "@etd/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EmailHistoryTable } from "../src/features/orders/components/email-history.tsx";
import { emailHistoryRows, lateMailBanner, mailBadge, mailError, mayRetry, notSentAfterAnHour, transportNote } from "../src/features/orders/mail-rows.ts";

/*
 * Email History's mail states (ORDER-2, issue 12): the badge each state shows, how it was sent,
 * its error, Retry only where allowed (QUEUE-12's read-only rule, as for Resend), and the warning
 * on a mail still not sent an hour after it was asked for, read on a fixed clock. First the rules,
 * then the table as the server renders it.
 */

const ASKED = "2026-03-14T14:00:00.000Z";

const mail = (id: string, changes: Partial<MailHistoryEntry> = {}): MailHistoryEntry => ({
  id,
  order_id: "2026031401",
  create_ts: ASKED,
  remainder_mail: 0,
  purpose: "document",
  uploadDoc: { mail_service_provider: "AWS", file1: "etravel.pdf", path: "docs/2026031401/etravel.pdf" },
  email: "juan@example.com",
  requested_by: "Maria Santos",
  status: "sent",
  transport: "ses",
  reason: null,
  attempt: 1,
  retry_at: null,
  sent_at: "2026-03-14T14:00:05.000Z",
  delivered_at: null,
  retry_requested: false,
  ...changes,
});

const at = (minutesAfterAsked: number) => new Date(Date.parse(ASKED) + minutesAfterAsked * 60_000);

describe("Email History's rules (ORDER-2, issue 12)", () => {
  it("gives each state its badge; a failed mail with its next attempt reads 'Retrying at hh:mm AM/PM' (US Eastern, as the page's other times)", () => {
    expect(mailBadge(mail("a", { status: "requested" })).label).toBe("Requested");
    expect(mailBadge(mail("a", { status: "queued" })).label).toBe("Queued");
    expect(mailBadge(mail("a", { status: "sent" })).label).toBe("Sent");
    expect(mailBadge(mail("a", { status: "delivered" })).label).toBe("Delivered");
    expect(mailBadge(mail("a", { status: "bounced" }))).toEqual({ label: "Bounced", tone: "bad" });
    expect(mailBadge(mail("a", { status: "complained" }))).toEqual({ label: "Complained", tone: "bad" });
    expect(mailBadge(mail("a", { status: "failed" }))).toEqual({ label: "Failed", tone: "bad" });
    // 19:35 UTC on 14 March 2026 is 3:35 PM in New York (daylight saving time began on 8 March).
    expect(mailBadge(mail("a", { status: "failed", retry_at: "2026-03-14T19:35:00.000Z" }))).toEqual({ label: "Retrying at 03:35 PM", tone: "progress" });
    // Midnight and noon, where a 12-hour clock goes wrong most easily; 05:00 UTC in January is midnight EST.
    expect(mailBadge(mail("a", { status: "failed", retry_at: "2026-01-10T05:00:00.000Z" })).label).toBe("Retrying at 12:00 AM");
    expect(mailBadge(mail("a", { status: "failed", retry_at: "2026-01-10T17:05:00.000Z" })).label).toBe("Retrying at 12:05 PM");
    expect(mailBadge(mail("a", { status: "unknown" })).label).toBe("Outcome unknown");
  });

  it("says how a mail went out; the outbox is named as not sent to the customer", () => {
    expect(transportNote(mail("a", { transport: "outbox" }))).toBe("via outbox — not sent to the customer");
    expect(transportNote(mail("a", { transport: "ses" }))).toBe("via AWS SES");
    expect(transportNote(mail("a", { transport: "sendgrid" }))).toBe("via Sendgrid");
    expect(transportNote(mail("a", { transport: null, status: "requested" }))).toBeUndefined();
  });

  it("shows the provider's error for a failed or bounced mail only", () => {
    expect(mailError(mail("a", { status: "failed", reason: "554 Message rejected" }))).toBe("554 Message rejected");
    expect(mailError(mail("a", { status: "bounced", reason: "bounce (5.1.1)" }))).toBe("bounce (5.1.1)");
    expect(mailError(mail("a", { status: "queued", reason: null }))).toBeUndefined();
  });

  it("offers Retry on a mail failed for good or of unknown outcome, never to a read-only member (QUEUE-12), nor twice", () => {
    expect(mayRetry(mail("a", { status: "failed", retry_at: null }), false)).toBe(true);
    expect(mayRetry(mail("a", { status: "unknown" }), false)).toBe(true);
    expect(mayRetry(mail("a", { status: "failed", retry_at: null }), true)).toBe(false);
    expect(mayRetry(mail("a", { status: "unknown" }), true)).toBe(false);
    // Another attempt is already scheduled: nothing for staff to do.
    expect(mayRetry(mail("a", { status: "failed", retry_at: "2026-03-14T14:10:00.000Z" }), false)).toBe(false);
    expect(mayRetry(mail("a", { status: "failed", retry_requested: true }), false)).toBe(false);
    for (const status of ["requested", "queued", "sent", "delivered", "bounced", "complained"] as const) expect(mayRetry(mail("a", { status }), false), status).toBe(false);
  });

  it("flags a mail still not sent one hour after it was asked for (requested, queued, failed, unknown), on a fixed clock", () => {
    for (const status of ["requested", "queued", "failed", "unknown"] as const) {
      expect(notSentAfterAnHour(mail("a", { status }), at(59)), status).toBe(false);
      expect(notSentAfterAnHour(mail("a", { status }), at(60)), status).toBe(true);
    }
    for (const status of ["sent", "delivered", "bounced", "complained"] as const) expect(notSentAfterAnHour(mail("a", { status }), at(600)), status).toBe(false);
    const mails = [mail("a", { status: "queued" }), mail("b", { status: "failed", retry_at: "2026-03-14T15:30:00.000Z" }), mail("c")];
    expect(lateMailBanner(mails, at(30))).toBeUndefined();
    expect(lateMailBanner(mails, at(61))).toBe("2 mails have not been sent an hour after they were asked for.");
    expect(lateMailBanner([mails[0]!], at(61))).toBe("1 mail has not been sent an hour after it was asked for.");
  });

  it("lists invoices with the document and reminder mails, by the time they were asked for", () => {
    const rows = emailHistoryRows({
      mailHistory: [mail("doc", { create_ts: "2026-03-14T14:00:00.000Z" }), mail("reminder", { create_ts: "2026-03-15T14:00:00.000Z", remainder_mail: 1, purpose: "reminder" })],
      invoiceHistory: [mail("invoice", { create_ts: "2026-03-14T15:00:00.000Z", purpose: "invoice", uploadDoc: { mail_service_provider: "AWS", file1: null, path: null } })],
    });
    expect(rows.map((row) => row.id)).toEqual(["doc", "invoice", "reminder"]);
  });
});

/** The table as rendered, reduced to what each row shows: its cells' text, and whether it is flagged. */
const render = (rows: readonly MailHistoryEntry[], now: Date, readOnly: boolean) => {
  const client = new QueryClient();
  const html = renderToStaticMarkup(
    createElement(QueryClientProvider, { client }, createElement(EmailHistoryTable, { rows, now, readOnly, busy: false, onRetry: () => undefined, onView: () => undefined })),
  );
  client.clear();
  const text = (fragment: string) => fragment.replace(/<[^<>]+>/g, " ").replace(/\s+/g, " ").trim();
  const bodyRows = [...html.matchAll(/<tr([^>]*)>(.*?)<\/tr>/g)].slice(1);
  return {
    html,
    banner: /<p class="order-mail-banner"[^>]*>(.*?)<\/p>/.exec(html)?.[1],
    rows: bodyRows.map(([, attributes, cells]) => ({
      late: attributes!.includes("order-mail-late"),
      cells: [...cells!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map(([, cell]) => text(cell!)),
      retry: cells!.includes(">Retry</button>"),
    })),
  };
};

describe("Email History as rendered (ORDER-2, ORDER-12, issue 12)", () => {
  const rows = [
    mail("11111111-1111-4111-8111-111111111111", { status: "delivered", delivered_at: "2026-03-14T14:01:00.000Z" }),
    mail("22222222-2222-4222-8222-222222222222", { status: "failed", reason: "554 Message rejected", transport: "sendgrid", uploadDoc: { mail_service_provider: "Sendgrid", file1: "etravel.pdf", path: "docs/2026031401/etravel.pdf" } }),
    mail("33333333-3333-4333-8333-333333333333", { status: "queued", transport: "outbox", purpose: "invoice", uploadDoc: { mail_service_provider: "AWS", file1: null, path: null } }),
    mail("44444444-4444-4444-8444-444444444444", { status: "unknown", remainder_mail: 1, purpose: "reminder" }),
  ];

  it("keeps the spec's columns and adds the state: badge, transport, error; invoices say 'Invoice'", () => {
    const shown = render(rows, at(10), false);
    expect(shown.html).toContain(">Mail Provider</th><th scope=\"col\">Remainder Mail</th><th scope=\"col\">State</th>");
    const [delivered, failed, invoice, unknown] = shown.rows;
    expect(delivered!.cells.slice(0, 6)).toEqual(["1", "2026031401", "etravel.pdf", expect.stringMatching(/^03\/14\/2026, 10:00:00 AM E[DS]T$/), "AWS", "No"]);
    expect(delivered!.cells[6]).toBe("Delivered via AWS SES");
    expect(failed!.cells[4]).toBe("Sendgrid");
    expect(failed!.cells[6]).toBe("Failed via Sendgrid 554 Message rejected");
    expect(invoice!.cells[2]).toBe("Invoice");
    expect(invoice!.cells[6]).toBe("Queued via outbox — not sent to the customer");
    expect(unknown!.cells[5]).toBe("Yes");
    expect(unknown!.cells[6]).toBe("Outcome unknown via AWS SES");
  });

  it("shows Retry on the failed and the unknown mail only, and to no read-only member (QUEUE-12)", () => {
    expect(render(rows, at(10), false).rows.map((row) => row.retry)).toEqual([false, true, false, true]);
    expect(render(rows, at(10), true).rows.map((row) => row.retry)).toEqual([false, false, false, false]);
  });

  it("after an hour, flags each mail not yet sent with 'Not sent after an hour' and counts them in a banner above the table", () => {
    const early = render(rows, at(59), false);
    expect(early.banner).toBeUndefined();
    expect(early.rows.map((row) => row.late)).toEqual([false, false, false, false]);

    const late = render(rows, at(61), false);
    expect(late.banner).toBe("3 mails have not been sent an hour after they were asked for.");
    expect(late.html.indexOf("order-mail-banner")).toBeLessThan(late.html.indexOf("<table"));
    expect(late.rows.map((row) => row.late)).toEqual([false, true, true, true]);
    expect(late.rows.map((row) => row.cells[6]!.includes("Not sent after an hour"))).toEqual([false, true, true, true]);
  });
});
