import { describe, it } from "vitest";
import {
  MAX_RECORDED_DOWNLOADS,
  REPEAT_DOWNLOAD_MS,
  orderDecider,
  type UploadDocument,
  type RecordDownload,
  type ResendDocumentMail,
  type SendInvoice,
  type SendReminderMail,
} from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { MARIA, PAOLO, ref, staffMetadata, systemMetadata } from "../support/metadata.ts";
import {
  CUSTOMER_EMAIL,
  DOCUMENT,
  documentDownloaded,
  documentUploaded,
  historyIn,
  INVOICE,
  ORDER_ID,
  orderPlaced,
  storedEvent,
} from "../support/order-fixtures.ts";

const spec = specFor(orderDecider);

const upload = (overrides: Partial<UploadDocument> = {}): UploadDocument => ({
  type: "UploadDocument",
  orderId: ORDER_ID,
  fileName: DOCUMENT,
  storedPath: `docs/100234/${DOCUMENT}`,
  contentType: "application/pdf",
  sizeBytes: 184_233,
  actor: PAOLO,
  provider: "Sendgrid",
  to: "juan.dc@example.org",
  ...overrides,
});

/** Paolo (Team) holds the order he uploads to: QUEUE-12's rule lets him. */
const paolosOrder = () => historyIn("Pending", PAOLO);

describe("ORDER-3 Upload Document", () => {
  it("records the stored document, its uploader (the acting member, by id and name) and where to mail it", () => {
    spec
      .given(paolosOrder())
      .when(upload())
      .then([
        {
          type: "DocumentUploaded",
          data: {
            orderId: ORDER_ID,
            contentType: "application/pdf",
            sizeBytes: 184_233,
            uploadedBy: ref(PAOLO),
            provider: "Sendgrid",
            // Issue 25: the file's name and path are sealed with the address.
            personal: { to: "juan.dc@example.org", fileName: DOCUMENT, storedPath: `docs/100234/${DOCUMENT}` },
          },
        },
      ]);
  });

  it("accepts an image in place of a PDF", () => {
    spec
      .given(paolosOrder())
      .when(upload({ fileName: "scan.jpg", storedPath: "docs/100234/scan.jpg", contentType: "image/jpeg" }))
      .then([
        {
          type: "DocumentUploaded",
          data: {
            orderId: ORDER_ID,
            contentType: "image/jpeg",
            sizeBytes: 184_233,
            uploadedBy: ref(PAOLO),
            provider: "Sendgrid",
            personal: { to: "juan.dc@example.org", fileName: "scan.jpg", storedPath: "docs/100234/scan.jpg" },
          },
        },
      ]);
  });

  it("refuses a file that is neither a PDF nor an image", () => {
    spec
      .given(paolosOrder())
      .when(upload({ contentType: "text/plain" }))
      .thenRefuses("invalid", "The document must be a PDF or an image.");
  });

  it("refuses an empty file", () => {
    spec.given(paolosOrder()).when(upload({ sizeBytes: 0 })).thenRefuses("invalid", "The uploaded file is empty.");
  });

  it("refuses an upload without a file", () => {
    spec.given(paolosOrder()).when(upload({ fileName: " " })).thenRefuses("invalid", "File is required");
  });

  it("refuses an address that is not an e-mail address", () => {
    spec
      .given(paolosOrder())
      .when(upload({ to: "juan at example" }))
      .thenRefuses("invalid", "Please enter a valid e-mail address.");
  });
});

describe("ORDER-2 Resend Mail and ORDER-8 reminder mail", () => {
  const resend: ResendDocumentMail = {
    type: "ResendDocumentMail",
    orderId: ORDER_ID,
    provider: "AWS",
    to: CUSTOMER_EMAIL,
    actor: MARIA,
  };
  const reminder: SendReminderMail = { ...resend, type: "SendReminderMail", provider: "Sendgrid" };

  it("resends the current document", () => {
    spec
      .given([...historyIn("Pending"), documentUploaded()])
      .when(resend)
      .then([
        { type: "DocumentMailResent", data: { orderId: ORDER_ID, provider: "AWS", personal: { to: CUSTOMER_EMAIL } } },
      ]);
  });

  it("sends a reminder to download the current document", () => {
    spec
      .given([...historyIn("Completed"), documentUploaded()])
      .when(reminder)
      .then([
        {
          type: "ReminderMailSent",
          data: { orderId: ORDER_ID, provider: "Sendgrid", personal: { to: CUSTOMER_EMAIL } },
        },
      ]);
  });

  it.each([
    ["resend", resend],
    ["reminder", reminder],
  ] as const)("refuses a %s before any document was uploaded", (_name, command) => {
    spec
      .given(historyIn("Pending"))
      .when(command)
      .thenRefuses("conflict", "Order 100234 has no document to mail yet.");
  });
});

describe("ADMIN-6 Send Invoice", () => {
  const invoice: SendInvoice = { type: "SendInvoice", orderId: ORDER_ID, provider: "AWS", invoice: INVOICE };

  it("mails the invoice, with the number the register issued, to the customer's own address by default", () => {
    spec
      .given([orderPlaced()])
      .when(invoice)
      .then([{ type: "InvoiceSent", data: { orderId: ORDER_ID, provider: "AWS", personal: { to: CUSTOMER_EMAIL }, invoice: INVOICE } }]);
  });

  it("mails it to another address when one is given", () => {
    spec
      .given([orderPlaced()])
      .when({ ...invoice, to: "accounts@example.com", actor: MARIA })
      .then([
        { type: "InvoiceSent", data: { orderId: ORDER_ID, provider: "AWS", personal: { to: "accounts@example.com" }, invoice: INVOICE } },
      ]);
  });

  it("refuses an order without a recorded payment: there is nothing to invoice", () => {
    spec
      .given([orderPlaced({ withPayment: false })])
      .when(invoice)
      .thenRefuses("conflict", "Order 100234 has no recorded payment, so no invoice can be issued.");
  });

  it("refuses a first invoice without a number, or one that does not state the recorded payment", () => {
    spec
      .given([orderPlaced()])
      .when({ type: "SendInvoice", orderId: ORDER_ID, provider: "AWS" })
      .thenRefuses("invalid", "Order 100234 has no invoice number yet; one must be issued before its invoice is sent.");
    spec
      .given([orderPlaced()])
      .when({ ...invoice, invoice: { ...INVOICE, amount: "79.00" } })
      .thenRefuses("invalid", "Order 100234's invoice must state its recorded payment, 49.00 USD.");
  });

  it("keeps the order's first invoice: a later send, any day or year, mails the same number", () => {
    const firstSent = storedEvent(
      "InvoiceSent",
      { orderId: ORDER_ID, provider: "AWS", personal: { to: CUSTOMER_EMAIL }, invoice: INVOICE },
      staffMetadata(MARIA, "2025-03-15T09:00:01.000Z"),
    );
    const nextYear = { ...INVOICE, number: "2026-000007", issuedAt: "2026-01-02T10:00:00.000Z" as typeof INVOICE.issuedAt };
    for (const command of [{ ...invoice, invoice: undefined }, { ...invoice, invoice: nextYear, provider: "Sendgrid" as const }]) {
      spec
        .given([orderPlaced(), firstSent])
        .when(command)
        .then([{ type: "InvoiceSent", data: { orderId: ORDER_ID, provider: command.provider, personal: { to: CUSTOMER_EMAIL }, invoice: INVOICE } }]);
    }
  });

  it("refuses when the customer's address has been erased and none is given", () => {
    spec
      .given([orderPlaced({ erased: true })])
      .when(invoice)
      .thenRefuses("invalid", "Order 100234 has no e-mail address any more.");
  });
});

describe("PUBLIC-2 Download Now", () => {
  const download = (overrides: Partial<RecordDownload> = {}): RecordDownload => ({
    type: "RecordDownload",
    orderId: ORDER_ID,
    fileName: DOCUMENT,
    now: new Date("2025-03-14T18:00:00.000Z"),
    ip: "198.51.100.7",
    ...overrides,
  });

  it("records the download with what the browser told us", () => {
    spec
      .given([orderPlaced(), documentUploaded()])
      .when(
        download({
          location: "Daly City, California, US",
          browser: "Chrome-122-0",
          os: "Android 14",
          device: "Pixel 7",
          deviceType: "mobile",
          timezone: "America/Los_Angeles",
        }),
      )
      .then([
        {
          type: "DocumentDownloaded",
          data: {
            orderId: ORDER_ID,
            timezone: "America/Los_Angeles",
            // Issue 25: the file's name and the device (from the visitor's own User-Agent) are sealed.
            personal: {
              ip: "198.51.100.7",
              location: "Daly City, California, US",
              fileName: DOCUMENT,
              browser: "Chrome-122-0",
              os: "Android 14",
              device: "Pixel 7",
              deviceType: "mobile",
            },
          },
        },
      ]);
  });

  it("leaves out what the browser did not tell", () => {
    spec
      .given([orderPlaced(), documentUploaded()])
      .when(download())
      .then([
        { type: "DocumentDownloaded", data: { orderId: ORDER_ID, personal: { ip: "198.51.100.7", fileName: DOCUMENT } } },
      ]);
  });

  it("issue 13: records nothing for a repeat within a minute of the last recorded download, and records one after", () => {
    const last = "2025-03-14T17:00:00.000Z";
    spec
      .given([orderPlaced(), documentUploaded(), documentDownloaded(last)])
      .when(download({ now: new Date(Date.parse(last) + REPEAT_DOWNLOAD_MS - 1000) }))
      .then([]);
    spec
      .given([orderPlaced(), documentUploaded(), documentDownloaded(last)])
      .when(download({ now: new Date(Date.parse(last) + REPEAT_DOWNLOAD_MS) }))
      .then([{ type: "DocumentDownloaded", data: { orderId: ORDER_ID, personal: { ip: "198.51.100.7", fileName: DOCUMENT } } }]);
  });

  it("issue 13: records at most a hundred downloads of a document; a new upload starts its count afresh", () => {
    const hundred = Array.from({ length: MAX_RECORDED_DOWNLOADS }, (_, i) => documentDownloaded(new Date(Date.parse("2025-03-14T12:30:00.000Z") + i * 61_000).toISOString()));
    spec.given([orderPlaced(), documentUploaded(), ...hundred]).when(download({ now: new Date("2025-03-15T12:00:00.000Z") })).then([]);
    spec
      .given([orderPlaced(), documentUploaded(), ...hundred, documentUploaded(DOCUMENT, undefined, "2025-03-15T10:00:00.000Z")])
      .when(download({ now: new Date("2025-03-15T12:00:00.000Z") }))
      .then([{ type: "DocumentDownloaded", data: { orderId: ORDER_ID, personal: { ip: "198.51.100.7", fileName: DOCUMENT } } }]);
  });

  it("finds nothing before a document was uploaded", () => {
    spec.given([orderPlaced()]).when(download()).thenRefuses("not_found", "The document was not found.");
  });

  it("finds nothing under another name", () => {
    spec
      .given([orderPlaced(), documentUploaded()])
      .when(download({ fileName: "../secrets.pdf" }))
      .thenRefuses("not_found", "The document was not found.");
  });

  it("finds only the current document once a newer one replaced it", () => {
    spec
      .given([orderPlaced(), documentUploaded("draft.pdf"), documentUploaded("final.pdf")])
      .when(download({ fileName: "draft.pdf" }))
      .thenRefuses("not_found", "The document was not found.");
  });
});

describe("ORDER-8 the automatic reminder (issue 12)", () => {
  const HOUR = 3_600_000;
  // documentUploaded() is stamped 2025-03-14T12:00:00.000Z.
  const due = new Date(Date.parse("2025-03-14T12:00:00.000Z") + 24 * HOUR);
  const remind = (now = due) => ({ type: "SendAutomaticReminder" as const, orderId: ORDER_ID, reminderAfterMs: 24 * HOUR, now });
  const systemReminder = () => storedEvent("ReminderMailSent", { orderId: ORDER_ID, provider: "AWS", personal: { to: CUSTOMER_EMAIL } }, systemMetadata("reminders"));

  it("reminds once the wait is over, through the upload's provider and to the address it was mailed to", () => {
    spec.given([orderPlaced(), documentUploaded()]).when(remind()).then([{ type: "ReminderMailSent", data: { orderId: ORDER_ID, provider: "AWS", personal: { to: CUSTOMER_EMAIL } } }]);
  });

  it("is not due before the wait is over", () => {
    spec.given([orderPlaced(), documentUploaded()]).when(remind(new Date(due.getTime() - 1))).thenRefuses("conflict", "The reminder for order 100234 is not due yet.");
  });

  it("never reminds twice, nor after a download or staff's own reminder, nor without a document", () => {
    spec.given([orderPlaced(), documentUploaded(), systemReminder()]).when(remind()).then([]);
    spec.given([orderPlaced(), documentUploaded(), documentDownloaded()]).when(remind()).then([]);
    spec.given([orderPlaced()]).when(remind()).then([]);
  });

  it("waits afresh for a new upload", () => {
    const later = new Date(Date.parse("2025-03-15T10:00:00.000Z") + 24 * HOUR);
    spec
      .given([orderPlaced(), documentUploaded(), systemReminder(), documentUploaded("final.pdf", ref(PAOLO), "2025-03-15T10:00:00.000Z")])
      .when(remind(later))
      .then([{ type: "ReminderMailSent", data: { orderId: ORDER_ID, provider: "AWS", personal: { to: CUSTOMER_EMAIL } } }]);
  });
});

describe("ADMIN-6 / ORDER-2 a mail's address is one bare address", () => {
  it("refuses addresses that would name other recipients or a display name in a mail header", () => {
    for (const to of ["a,b@evil.example", '"x"<a@evil.example>', "a@b.example;c@d.example", "a:b@evil.example"]) {
      spec
        .given(historyIn("Pending", MARIA))
        .when({ type: "SendInvoice", orderId: ORDER_ID, provider: "AWS", to, actor: MARIA } as never)
        .thenRefuses("invalid", "Please enter a valid e-mail address.");
    }
  });
});
