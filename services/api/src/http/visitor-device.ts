import Bowser from "bowser";

/*
 * What a download record says about the traveller's device (PUBLIC-2), read from the browser's
 * User-Agent with bowser (MIT, maintained; ua-parser-js 2.x is AGPL: ADR 0020). A part the header
 * does not tell is left out, and the pages show it as "Unknown".
 */

export interface VisitorDevice {
  /** Name and major version joined by a dash, as the public record has it (001 §3): "Firefox-133". */
  readonly browser?: string;
  /** "Windows 10", "iOS 17.4", "Linux". */
  readonly os?: string;
  /** "Apple iPhone"; "Computer" for a desktop that names no maker. */
  readonly device?: string;
  /** "Desktop", "Mobile", "Tablet" or "TV". */
  readonly deviceType?: string;
}

/** Longer headers are cut: a User-Agent is the visitor's to write, and it ends up in the log. */
const MAX_USER_AGENT = 512;
const MAX_PART = 60;

/** Printable text only, of a bounded length, or nothing. */
const part = (text: string | undefined): string | undefined => {
  const cleaned = text?.replace(/[^\x20-\x7e]/g, "").trim().slice(0, MAX_PART);
  return cleaned === undefined || cleaned === "" ? undefined : cleaned;
};

const joined = (...parts: (string | undefined)[]) => part(parts.filter((p) => p !== undefined && p !== "").join(" "));

const TYPES: Record<string, string> = { desktop: "Desktop", mobile: "Mobile", tablet: "Tablet", tv: "TV" };

export const describeDevice = (userAgent: string | undefined): VisitorDevice => {
  const ua = userAgent?.slice(0, MAX_USER_AGENT).trim();
  if (!ua) return {};
  const { browser, os, platform } = Bowser.parse(ua);
  const major = browser.version?.split(".")[0];
  const name = part(browser.name);
  const type = platform.type === undefined ? undefined : TYPES[platform.type];
  const device = joined(platform.vendor, platform.model) ?? (type === "Desktop" ? "Computer" : undefined);
  const described: VisitorDevice = {
    browser: name === undefined ? undefined : part(major ? `${name}-${major}` : name),
    os: joined(os.name, os.versionName ?? os.version),
    device,
    deviceType: type,
  };
  return Object.fromEntries(Object.entries(described).filter(([, value]) => value !== undefined));
};
