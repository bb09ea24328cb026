import type express from "express";
import { describe, expect, it } from "vitest";
import { clientAddress, throttleKey } from "../src/http/client-address.ts";

describe("the unit throttles count a client by (issue 9 items 4 and 6)", () => {
  it("an IPv4 address is itself, also when it arrives mapped into IPv6", () => {
    expect(throttleKey("203.0.113.7")).toBe("203.0.113.7");
    expect(throttleKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("every IPv6 address of one /64 is one client, however it is written", () => {
    const keys = ["2001:db8:1:2::1", "2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2:abcd::9"].map(throttleKey);
    expect(new Set(keys)).toEqual(new Set(["2001:db8:1:2::/64"]));
    expect(throttleKey("2001:db8:1:3::1")).not.toBe(keys[0]);
    expect(throttleKey("::1")).toBe("0:0:0:0::/64");
  });
});

describe("the client's address (issue 13 review)", () => {
  const request = (ip: string | undefined, remoteAddress: string | undefined) => ({ ip, socket: { remoteAddress } }) as unknown as express.Request;

  it("is what the trusted proxy forwarded when that is an address, IPv4 or IPv6", () => {
    expect(clientAddress(request("203.0.113.7", "127.0.0.1"))).toBe("203.0.113.7");
    expect(clientAddress(request("2001:db8::1", "127.0.0.1"))).toBe("2001:db8::1");
  });

  it("falls back to the connection's address when the forwarded text is not an address", () => {
    for (const forwarded of ["<svg/onload=alert(1)>", "a b c", "", "203.0.113.7, 198.51.100.1", undefined]) {
      expect(clientAddress(request(forwarded, "198.51.100.9")), String(forwarded)).toBe("198.51.100.9");
    }
    expect(clientAddress(request("nonsense", undefined))).toBe("0.0.0.0");
  });
});
