import { describe, expect, it } from "vitest";
import { openIpLocation } from "../src/http/ip-location.ts";
import { describeDevice } from "../src/http/visitor-device.ts";

/*
 * PUBLIC-2: what a download record says of the device (bowser, ADR 0020) and where it came from
 * (DB-IP Lite, offline). "Unknown" is the page's word for a part left out here.
 */

describe("a download's device, from the User-Agent (PUBLIC-2)", () => {
  it.each([
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", { browser: "Firefox-133", os: "Windows 10", device: "Computer", deviceType: "Desktop" }],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
      { browser: "Safari-17", os: "iOS 17.4", device: "Apple iPhone", deviceType: "Mobile" },
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.6261.64 Mobile Safari/537.36",
      { browser: "Chrome-122", os: "Android 14", deviceType: "Mobile" },
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
      { browser: "Microsoft Edge-131", os: "Windows 10", device: "Computer", deviceType: "Desktop" },
    ],
  ])("%s", (userAgent, expected) => {
    expect(describeDevice(userAgent)).toEqual(expected);
  });

  it("leaves out what a header does not tell, and never stores control characters or long text", () => {
    expect(describeDevice(undefined)).toEqual({});
    expect(describeDevice("   ")).toEqual({});
    expect(describeDevice("curl/8.5.0")).toEqual({});
    const described = describeDevice(`Mozilla/5.0 (Windows NT 10.0) Gecko/20100101 Firefox/133.0 ${"x".repeat(10_000)}\u0000\u202e`);
    expect(described.browser).toBe("Firefox-133");
    for (const part of Object.values(described)) expect(part).toMatch(/^[\x20-\x7e]{1,60}$/);
  });
});

describe("a download's location, offline from DB-IP Lite (PUBLIC-2)", () => {
  const locate = openIpLocation();

  it("names the country of a public address, IPv4, IPv4 mapped into IPv6, and IPv6", () => {
    expect(locate("112.198.0.1")).toBe("Philippines");
    expect(locate("8.8.8.8")).toBe("United States");
    expect(locate("::ffff:81.2.69.160")).toBe("United Kingdom");
    expect(locate("2001:4860:4860::8888")).toMatch(/^[A-Z][a-z]+/);
  });

  it("has no answer for private, loopback, documentation or malformed addresses", () => {
    for (const ip of ["127.0.0.1", "::1", "10.1.2.3", "192.168.0.10", "203.0.113.5", "not an address", ""]) expect(locate(ip), ip).toBeUndefined();
  });
});
