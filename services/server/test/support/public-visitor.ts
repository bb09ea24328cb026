import { orderDetailsProjection, waitForPosition } from "@etd/projections";
import { GRANT_COOKIE } from "@etd/api/internal/http/cookies.ts";
import type { TestApi } from "./test-api.ts";

/*
 * The traveller's side as a browser walks it (issue 9 item 4): track-order with the order's id and
 * e-mail, keep the grant cookie it sets, send it back on the download page's calls.
 */

/** The e-mail the order was placed with, as the traveller knows it. */
export const orderEmail = async (api: TestApi, orderId: string): Promise<string> => {
  const placed = (await api.runtime.deps.store.readStream(`order-${orderId}`))[0]!;
  return (placed.data as { personal: { email: string } }).personal.email;
};

/** Waits until the order details read model (which track-order reads) has the order's last event. */
export const settleOrder = async (api: TestApi, orderId: string): Promise<void> => {
  const last = (await api.runtime.deps.store.readStream(`order-${orderId}`)).at(-1)!;
  if (!(await waitForPosition(api.runtime.driver, last.position, [orderDetailsProjection.name]))) throw new Error(`read model never reached order ${orderId}`);
};

/** The `name=value` of the grant cookie an answer sets, or undefined. */
export const grantCookieOf = (response: Response): string | undefined =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .find((pair) => pair.startsWith(`${GRANT_COOKIE}=`));

/** Tracks the order at `base` with its real e-mail; answers the `Cookie` header value to send back. */
export const trackOrder = async (api: TestApi, orderId: string, base = api.base): Promise<string> => {
  await settleOrder(api, orderId);
  const response = await fetch(`${base}/api/front/track-order`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ orderId, email: await orderEmail(api, orderId) }),
  });
  const cookie = grantCookieOf(response);
  if (response.status !== 200 || cookie === undefined) throw new Error(`tracking ${orderId} failed: ${response.status} ${await response.text()}`);
  return cookie;
};
