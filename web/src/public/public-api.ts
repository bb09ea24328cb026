import type { Envelope } from "@etd/contract";

/*
 * The traveller's calls (001 §7): JSON to /api/front/*, the grant travelling as the HttpOnly
 * cookie track-order set (ADR 0007). The envelope comes back as the server sent it, with the HTTP
 * status beside it, so a page can tell "track first" (403) from any other refusal.
 */

export type PublicAnswer<T> = Envelope<T> & { readonly httpStatus: number };

const UNREACHABLE = "We could not reach the server. Please check your connection and try again.";

export const postPublic = async <T = unknown>(path: "/front/track-order" | "/front/get-download-history" | "/front/download-passport-doc-pdf", body: unknown): Promise<PublicAnswer<T>> => {
  try {
    const response = await fetch(`/api${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    const envelope = (await response.json()) as Envelope<T>;
    return { ...envelope, httpStatus: response.status };
  } catch {
    return { status: 0, message: UNREACHABLE, data: undefined as T, httpStatus: 0 };
  }
};
