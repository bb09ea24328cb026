/*
 * The two public routes, read from the address bar (001 §2): /track-order/{orderId} and
 * /get-new-order-details/{orderId}. Two pages do not need a router library.
 */

export type Route = { readonly page: "track" | "download"; readonly orderId: string } | { readonly page: "missing" };

export type Navigate = (path: string, options?: { readonly replace?: boolean }) => void;

const ROUTE = /^\/(track-order|get-new-order-details)(?:\/([^/]*))?\/?$/;

const decoded = (part: string | undefined) => {
  try {
    return decodeURIComponent(part ?? "");
  } catch {
    return "";
  }
};

export const routeOf = (pathname: string): Route => {
  const match = ROUTE.exec(pathname);
  if (!match) return { page: "missing" };
  const orderId = decoded(match[2]).trim();
  if (match[1] === "track-order") return { page: "track", orderId };
  return orderId === "" ? { page: "missing" } : { page: "download", orderId };
};

export const trackPath = (orderId: string) => `/track-order/${encodeURIComponent(orderId)}`;
export const downloadPath = (orderId: string) => `/get-new-order-details/${encodeURIComponent(orderId)}`;
