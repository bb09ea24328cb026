import type { MailProvider } from "@etd/events";
import { seededRandom, type SeededRandom } from "./seeded-random.ts";

/*
 * What happened to a demo order's finished document after it was uploaded (issue 12, demo data):
 * which file it was, how its mail went (queued, sent, then delivered, bounced, or failed for
 * good), whether a reminder to download went, and when the traveller downloaded it, from
 * which device. Pure and deterministic: the same seed, order, upload time and `now` give the same
 * story, and each order draws from its own sequence, so one order's story never shifts another's.
 *
 * The times follow a real order's: the mail goes seconds after the upload, the provider's report
 * comes minutes later, downloads hours later, and a document nobody downloaded within the
 * reminder time gets its reminder then, as the mail schedule would send it. Nothing is after `now`.
 *
 * IP addresses are from the ranges reserved for documentation (RFC 5737, RFC 3849), as the demo's
 * e-mail addresses are: nothing here points at a real person.
 */

/** How long a customer has to download before the reminder goes (Remainder Mail = Yes): the default REMINDER_AFTER_HOURS. */
export const DEMO_REMINDER_AFTER_HOURS = 24;

/**
 * The backoff the demo's failed mails were retried with: attempt n failed for a passing reason is
 * tried again `DEMO_MAIL_RETRY_DELAYS_MS[n - 1]` later; after the last, the mail is failed for good.
 */
export const DEMO_MAIL_RETRY_DELAYS_MS: readonly number[] = [60_000, 5 * 60_000];

export type DemoTransport = "ses" | "sendgrid";

/**
 * A bounce from an address that does not exist (a typo in the order's e-mail), as the delivery
 * report webhooks record it: codes only, never the receiving server's text (ADR 0019), so SES's
 * bounce type and sub-type, SendGrid's event, each with the enhanced status code.
 */
export const DEMO_BOUNCE_REASONS: Readonly<Record<DemoTransport, string>> = { ses: "Permanent/General (5.1.1)", sendgrid: "bounce (5.1.1)" };

/** One event of a mail's stream, in the order it happened. */
export type DemoMailStep =
  | { readonly type: "queued"; readonly at: Date; readonly attempt: number }
  | { readonly type: "sent"; readonly at: Date; readonly attempt: number; readonly providerMessageId: string }
  | {
      readonly type: "failed";
      readonly at: Date;
      readonly attempt: number;
      readonly reason: string;
      /** The provider refused for good (no retry), rather than could not be reached. */
      readonly permanent: boolean;
    }
  | { readonly type: "delivered"; readonly at: Date; readonly providerEventId: string }
  | { readonly type: "bounced"; readonly at: Date; readonly providerEventId: string; readonly reason: string };

export type DemoMailOutcome = "delivered" | "bounced" | "failed";

export interface DemoMail {
  readonly transport: DemoTransport;
  readonly outcome: DemoMailOutcome;
  readonly steps: readonly DemoMailStep[];
}

/** A download from the public page, with what the browser told about the device (PUBLIC-2). */
export interface DemoDownload {
  readonly at: Date;
  readonly ip: string;
  readonly location?: string;
  readonly browser: string;
  readonly os: string;
  readonly device: string;
  readonly deviceType: string;
  readonly timezone: string;
}

export interface DemoDocumentFile {
  readonly fileName: string;
  readonly contentType: "application/pdf" | "image/png";
}

export interface DemoDocumentStory {
  readonly document: DemoDocumentFile;
  readonly provider: MailProvider;
  /** The mail the upload asked for. */
  readonly mail: DemoMail;
  /** The automatic reminder to download, when one went before `now`. */
  readonly reminder?: { readonly at: Date; readonly mail: DemoMail };
  /** In time order, all before `now`. */
  readonly downloads: readonly DemoDownload[];
}

export interface DemoDocumentStoryOptions {
  readonly seed: number;
  readonly orderId: string;
  readonly uploadedAt: Date;
  readonly now: Date;
  /** How long after the upload the reminder goes when nothing was downloaded (REMINDER_AFTER_HOURS). */
  readonly reminderAfterHours?: number;
  /** Where the traveller lives: the downloads' location and time zone. */
  readonly home?: { readonly country?: string | undefined };
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The time zones browsers report in the countries demo travellers live in. */
const TIME_ZONES: Readonly<Record<string, string>> = {
  Philippines: "Asia/Manila",
  "United States": "America/Los_Angeles",
  Canada: "America/Toronto",
  "United Kingdom": "Europe/London",
  Australia: "Australia/Sydney",
  Japan: "Asia/Tokyo",
  "South Korea": "Asia/Seoul",
  China: "Asia/Shanghai",
  Singapore: "Asia/Singapore",
  "Hong Kong": "Asia/Hong_Kong",
  Taiwan: "Asia/Taipei",
  Malaysia: "Asia/Kuala_Lumpur",
  "United Arab Emirates": "Asia/Dubai",
  "Saudi Arabia": "Asia/Riyadh",
  Qatar: "Asia/Qatar",
  Germany: "Europe/Berlin",
  India: "Asia/Kolkata",
};

/** Devices in the words the public page's user-agent reading gives (describeDevice, bowser); mostly phones. */
const DEVICES: readonly (readonly [Omit<DemoDownload, "at" | "ip" | "location" | "timezone">, number])[] = [
  [{ browser: "Chrome-131", os: "Android 14", device: "Samsung Galaxy S23", deviceType: "Mobile" }, 34],
  [{ browser: "Safari-17", os: "iOS 17.6", device: "Apple iPhone", deviceType: "Mobile" }, 28],
  [{ browser: "Chrome-131", os: "Windows 10", device: "Computer", deviceType: "Desktop" }, 16],
  [{ browser: "Microsoft Edge-131", os: "Windows 10", device: "Computer", deviceType: "Desktop" }, 6],
  [{ browser: "Safari-17", os: "macOS Sonoma", device: "Computer", deviceType: "Desktop" }, 7],
  [{ browser: "Safari-17", os: "iOS 17.6", device: "Apple iPad", deviceType: "Tablet" }, 4],
  [{ browser: "Firefox-133", os: "Linux", device: "Computer", deviceType: "Desktop" }, 2],
  [{ browser: "Opera-115", os: "Android 13", device: "Xiaomi Redmi Note 12", deviceType: "Mobile" }, 3],
];

/** Per failure: the provider's words, and whether it refused for good or could not be reached. */
const FAILURES: Readonly<Record<DemoTransport, readonly { readonly reason: string; readonly permanent: boolean }[]>> = {
  ses: [
    { reason: "MessageRejected: Sending paused for this account.", permanent: true },
    { reason: "connect ETIMEDOUT email.us-east-1.amazonaws.com:443", permanent: false },
  ],
  sendgrid: [
    { reason: "403 Forbidden: The from address does not match a verified Sender Identity.", permanent: true },
    { reason: "503 Service Unavailable", permanent: false },
  ],
};

const HEX = "0123456789abcdef";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const chars = (random: SeededRandom, alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[random.int(0, alphabet.length - 1)]).join("");
const hex = (random: SeededRandom, n: number) => chars(random, HEX, n);
const uuidLike = (random: SeededRandom) =>
  `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-${"89ab"[random.int(0, 3)]}${hex(random, 3)}-${hex(random, 12)}`;

/** SES message ids look like `0100018c2f3a4b5c-<uuid>-000000`; SendGrid's are 22 base64url characters. */
const providerMessageId = (random: SeededRandom, transport: DemoTransport) =>
  transport === "ses" ? `0100019${hex(random, 9)}-${uuidLike(random)}-000000` : chars(random, BASE64URL, 22);

/** SES reports arrive as SNS notifications (a UUID); SendGrid's carry an sg_event_id. */
const providerEventId = (random: SeededRandom, transport: DemoTransport) =>
  transport === "ses" ? uuidLike(random) : chars(random, BASE64URL, 22);

const between = (random: SeededRandom, from: number, min: number, max: number) => from + min + Math.floor(random.next() * (max - min));

/** A documentation address: mostly IPv4 (TEST-NET-1..3), some IPv6 (2001:db8::/32). */
const demoIp = (random: SeededRandom) =>
  random.chance(0.15)
    ? `2001:db8:${random.int(1, 0xffff).toString(16)}::${random.int(1, 0xffff).toString(16)}`
    : `${random.pick(["192.0.2", "198.51.100", "203.0.113"])}.${random.int(1, 254)}`;

/**
 * A mail that reached the provider: queued as the reactor picks the request up, accepted a moment
 * later, and the provider's report some minutes after. Times past `now` are held at `now`: the
 * report of a mail sent a minute ago has just come.
 */
const acceptedMail = (random: SeededRandom, transport: DemoTransport, requestedAt: number, now: number, bounced: boolean): DemoMail => {
  const queuedAt = between(random, requestedAt, SECOND, 8 * SECOND);
  const sentAt = between(random, queuedAt, 300, 2500);
  const reportedAt = bounced ? between(random, sentAt, 5 * SECOND, 3 * MINUTE) : between(random, sentAt, 20 * SECOND, 12 * MINUTE);
  const at = (ms: number) => new Date(Math.min(ms, now));
  const report: DemoMailStep = bounced
    ? { type: "bounced", at: at(reportedAt), providerEventId: providerEventId(random, transport), reason: DEMO_BOUNCE_REASONS[transport] }
    : { type: "delivered", at: at(reportedAt), providerEventId: providerEventId(random, transport) };
  return {
    transport,
    outcome: bounced ? "bounced" : "delivered",
    steps: [
      { type: "queued", at: at(queuedAt), attempt: 1 },
      { type: "sent", at: at(sentAt), attempt: 1, providerMessageId: providerMessageId(random, transport) },
      report,
    ],
  };
};

/**
 * A mail that never went: refused for good at once, or unreachable on every attempt of the
 * backoff. Undefined when its last attempt would come after `now` (it would still be retrying).
 */
const failedMail = (random: SeededRandom, transport: DemoTransport, requestedAt: number, now: number): DemoMail | undefined => {
  const failure = random.pick(FAILURES[transport]);
  const attempts = failure.permanent ? 1 : DEMO_MAIL_RETRY_DELAYS_MS.length + 1;
  const steps: DemoMailStep[] = [];
  let queuedAt = between(random, requestedAt, SECOND, 8 * SECOND);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    // An unreachable provider takes its time to say so; a refusal comes back at once.
    const failedAt = failure.permanent ? between(random, queuedAt, 200, 1500) : between(random, queuedAt, 10 * SECOND, 30 * SECOND);
    steps.push({ type: "queued", at: new Date(queuedAt), attempt });
    steps.push({ type: "failed", at: new Date(failedAt), attempt, reason: failure.reason, permanent: failure.permanent });
    const delay = DEMO_MAIL_RETRY_DELAYS_MS[attempt - 1];
    if (delay !== undefined) queuedAt = between(random, failedAt + delay, 0, 5 * SECOND);
  }
  return steps.at(-1)!.at.getTime() <= now ? { transport, outcome: "failed", steps } : undefined;
};

export const demoDocumentStory = (options: DemoDocumentStoryOptions): DemoDocumentStory => {
  const { orderId } = options;
  const uploadedAt = options.uploadedAt.getTime();
  const now = options.now.getTime();
  // The order's own sequence: its number mixed into the seed.
  const random = seededRandom((Math.imul(options.seed, 0x9e3779b1) ^ Number(orderId) ^ 0x6d61696c) >>> 0);

  const document: DemoDocumentFile = random.chance(0.8)
    ? { fileName: `etravel-${orderId}.pdf`, contentType: "application/pdf" }
    : { fileName: `etravel-qr-${orderId}.png`, contentType: "image/png" };
  const provider: MailProvider = random.chance(0.75) ? "AWS" : "Sendgrid";
  const transport: DemoTransport = provider === "AWS" ? "ses" : "sendgrid";

  const roll = random.next();
  const mail =
    (roll < 0.05 ? failedMail(random, transport, uploadedAt, now) : undefined) ??
    acceptedMail(random, transport, uploadedAt, now, roll >= 0.05 && roll < 0.14);

  // The tracker records the country of the address (DB-IP Lite); the demo's addresses are
  // documentation ones, so the traveller's home country stands in for what it would find.
  const location = options.home?.country?.trim() || undefined;
  const timezone = (location && TIME_ZONES[location]) ?? "Asia/Manila";
  const homeDevice = { ...random.weighted(DEVICES), ip: demoIp(random) };
  const downloadAt = (at: number, sameDevice: boolean): DemoDownload => ({
    at: new Date(at),
    ...(sameDevice ? homeDevice : { ...random.weighted(DEVICES), ip: demoIp(random) }),
    ...(location === undefined ? {} : { location }),
    timezone,
  });

  // When the traveller first opens the page, if they do: the mail's link, or the tracker when it never came.
  const delivered = mail.outcome === "delivered";
  // Most open the mail within hours, a few only days later (hence the square: a long tail).
  let firstDownload: number | undefined = delivered
    ? random.chance(0.85) ? uploadedAt + 20 * MINUTE + Math.floor(random.next() ** 2 * 30 * HOUR) : undefined
    : random.chance(0.1) ? between(random, uploadedAt, 2 * HOUR, 48 * HOUR) : undefined;

  // Not downloaded in time, the customer was reminded, as the mail schedule does it (it polls,
  // hence the seconds): every such document, a bounced address too, whose reminder bounced again.
  let reminder: DemoDocumentStory["reminder"];
  const remindAt = between(random, uploadedAt + (options.reminderAfterHours ?? DEMO_REMINDER_AFTER_HOURS) * HOUR, SECOND, 15 * SECOND);
  if ((firstDownload === undefined || firstDownload > remindAt) && remindAt <= now) {
    reminder = { at: new Date(remindAt), mail: acceptedMail(random, transport, remindAt, now, mail.outcome === "bounced") };
    // Half of those the reminder reaches download after it; one already coming does so after it too.
    if (delivered) firstDownload = firstDownload !== undefined || random.chance(0.5) ? between(random, remindAt, 15 * MINUTE, 36 * HOUR) : undefined;
  }

  const downloads: DemoDownload[] = [];
  if (firstDownload !== undefined) {
    downloads.push(downloadAt(firstDownload, true));
    // Some open it again, before travelling: often on the same phone, sometimes on another device.
    if (random.chance(0.25)) downloads.push(downloadAt(between(random, firstDownload, HOUR, 4 * DAY), random.chance(0.5)));
  }

  return {
    document,
    provider,
    mail,
    ...(reminder === undefined ? {} : { reminder }),
    downloads: downloads.filter((d) => d.at.getTime() <= now),
  };
};
