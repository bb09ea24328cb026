import { describe, expect, it } from "vitest";
import { downloadPath, routeOf, trackPath } from "../src/public/public-routes.ts";

/* PUBLIC-1, PUBLIC-2: the traveller's two routes, read from the address bar. */

describe("the public pages' routes (PUBLIC-1, PUBLIC-2)", () => {
  it("reads the order id the track page prefills, decoded and trimmed; the track page also opens without one", () => {
    expect(routeOf("/track-order/100234")).toEqual({ page: "track", orderId: "100234" });
    expect(routeOf("/track-order/%20100234%20/")).toEqual({ page: "track", orderId: "100234" });
    expect(routeOf("/track-order")).toEqual({ page: "track", orderId: "" });
    // A malformed escape is no id rather than an error.
    expect(routeOf("/track-order/%E0%A4%A")).toEqual({ page: "track", orderId: "" });
  });

  it("opens the download page only with an order id; anything else is not found", () => {
    expect(routeOf("/get-new-order-details/100234")).toEqual({ page: "download", orderId: "100234" });
    for (const path of ["/get-new-order-details", "/get-new-order-details/", "/track-order/1/2", "/track-orders/1", "/"]) {
      expect(routeOf(path), path).toEqual({ page: "missing" });
    }
  });

  it("builds the paths it reads back", () => {
    for (const id of ["100234", "a/b c"]) {
      expect(routeOf(trackPath(id))).toEqual({ page: "track", orderId: id });
      expect(routeOf(downloadPath(id))).toEqual({ page: "download", orderId: id });
    }
  });
});
