import { BRANDS } from "@etd/contract";
import type { LandingDomain, MailPurpose } from "@etd/events";
import { escapeHtml } from "./html.ts";

/*
 * The customer's mails, one template per purpose, in the look of the order's brand (its landing
 * domain, 001 §1). The mail is rendered once, when the attempt is recorded, and kept as sent
 * (MailQueued's sealed content), so a template may change without changing what staff see in View
 * Email Content; `TEMPLATE_VERSION` goes up when one does, and the attempt records it.
 */

const TEMPLATE_VERSION = 1;

export interface MailToCompose {
  readonly purpose: MailPurpose;
  readonly landingDomain: LandingDomain;
  readonly orderId: string;
  /** The traveller's name as they gave it. */
  readonly customerName: string;
  /** The public page where they enter their order id and e-mail and download the document. */
  readonly trackUrl: string;
  /** An invoice mail's number (the PDF is attached). */
  readonly invoiceNumber?: string | undefined;
}

export interface ComposedMail {
  /** `{purpose}/{landing domain}@{version}`: which template and brand, for the record. */
  readonly template: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

interface Wording {
  readonly subject: string;
  readonly lines: readonly string[];
  /** The button's label; the link is the tracking page. */
  readonly action?: string;
}

const wording = (mail: MailToCompose, brandName: string): Wording => {
  switch (mail.purpose) {
    case "document":
      return {
        subject: `Your ${brandName} document for order ${mail.orderId} is ready`,
        lines: [
          `Your travel declaration for order ${mail.orderId} has been processed and your document is ready.`,
          "Open the link below, enter your order ID and the e-mail address you used, and download it. Keep it at hand (printed or on your phone) when you travel.",
        ],
        action: "Download your document",
      };
    case "reminder":
      return {
        subject: `Reminder: your ${brandName} document for order ${mail.orderId} is waiting`,
        lines: [
          `Your document for order ${mail.orderId} is ready, but it has not been downloaded yet.`,
          "Open the link below, enter your order ID and the e-mail address you used, and download it before you travel.",
        ],
        action: "Download your document",
      };
    case "invoice":
      return {
        subject: `Invoice ${mail.invoiceNumber ?? ""} for your ${brandName} order ${mail.orderId}`.replace(/\s+/g, " "),
        lines: [`Thank you for your order ${mail.orderId}. Your invoice${mail.invoiceNumber ? ` ${mail.invoiceNumber}` : ""} is attached as a PDF.`],
      };
  }
};

export const composeMail = (mail: MailToCompose): ComposedMail => {
  const brand = BRANDS[mail.landingDomain];
  const words = wording(mail, brand.name);
  const greeting = mail.customerName ? `Dear ${mail.customerName},` : "Dear traveller,";
  const signature = `${brand.name} · ${brand.mailDomain}`;
  const text = [
    greeting,
    "",
    ...words.lines.flatMap((line) => [line, ""]),
    ...(words.action ? [`${words.action}: ${mail.trackUrl}`, ""] : []),
    `Order ID: ${mail.orderId}`,
    "",
    signature,
    "",
  ].join("\n");
  const html =
    `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;background:#f5f7fa;margin:0;padding:24px">` +
    `<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:6px;padding:24px">` +
    `<h1 style="font-size:18px;margin:0 0 16px;color:${brand.colors.primary}">${escapeHtml(brand.name)}</h1>` +
    `<p>${escapeHtml(greeting)}</p>` +
    words.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("") +
    (words.action
      ? `<p><a href="${escapeHtml(mail.trackUrl)}" style="display:inline-block;background:${brand.colors.primary};color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(words.action)}</a></p>`
      : "") +
    `<p style="color:#52606d">Order ID: ${escapeHtml(mail.orderId)}</p>` +
    `<p style="color:#7b8794;font-size:12px">${escapeHtml(signature)}</p>` +
    `</div></body></html>`;
  return { template: `${mail.purpose}/${mail.landingDomain}@${TEMPLATE_VERSION}`, subject: words.subject, text, html };
};
