import { isIP, isIPv6 } from "node:net";
import type express from "express";
import { ipv6Groups } from "@etd/contract";

/*
 * The unit a throttle counts a client by. An IPv4 address is one client; an IPv6 client is
 * usually given a whole /64 (18 quintillion addresses), so counting per address would let one
 * client spread its guesses over as many addresses as it likes. IPv4 inside IPv6 (::ffff:a.b.c.d)
 * counts as its IPv4 address.
 */
export const throttleKey = (ip: string): string => {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip.toLowerCase());
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, "")).join(":")}::/64`;
};

/**
 * The client's address: the connection's, or with TRUST_PROXY the one the trusted proxy forwarded.
 * A forwarded value is text a proxy passed on and may not be an address at all; it is recorded in
 * the log and shown on pages, so anything but an address falls back to the connection's.
 */
export const clientAddress = (req: express.Request): string => {
  const forwarded = req.ip;
  if (forwarded !== undefined && isIP(forwarded) !== 0) return forwarded;
  return req.socket.remoteAddress ?? "0.0.0.0";
};
