import { randomUUID } from "node:crypto";
import type { OutgoingMail } from "../src/index.ts";

/** A small but real PDF, so the attachment is the kind of file the service mails. */
export const SAMPLE_PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

/** A document mail as the reactor will ask for one; every call gets fresh ids. */
export const sampleMail = (overrides: Partial<OutgoingMail> = {}): OutgoingMail => {
  const eventId = randomUUID();
  return {
    messageId: `<${eventId}@etd.example>`,
    from: "ETD Back Office <no-reply@etd.example>",
    to: "traveller@customer.example",
    subject: "Your travel declaration — order 4711",
    text: "Dear traveller, your document is attached.",
    html: "<p>Dear traveller, your document is attached.</p>",
    attachments: [{ fileName: "etd-4711.pdf", contentType: "application/pdf", content: SAMPLE_PDF }],
    tags: { eventId, orderId: "4711" },
    ...overrides,
  };
};

/** A port nothing listens on: bound and released, so a connection to it is refused. */
export const closedPort = async (): Promise<number> => {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};
