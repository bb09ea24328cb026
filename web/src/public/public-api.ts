import type { Envelope } from "@etd/contract";
import type { BodyOf, DataOf, EndpointDeclaration, SchemaName } from "@etd/contract/endpoints";

/*
 * The traveller's calls (001 §7): JSON to a declared /api/front/* endpoint, the grant travelling
 * as the HttpOnly cookie track-order set (ADR 0007). The envelope comes back as the server sent
 * it, with the HTTP status beside it, so a page can tell "track first" (403) from any other
 * refusal.
 *
 * Not the console's callApi: that one sends a signed-in member's token (a member may use the same
 * browser), signs out on a 401 and answers no HTTP status; and this entry loads none of the
 * console's code (main.tsx).
 */

export type PublicAnswer<T> = Envelope<T> & { readonly httpStatus: number };

const UNREACHABLE = "We could not reach the server. Please check your connection and try again.";

export const callPublic = async <E extends EndpointDeclaration & { readonly guard: "public"; readonly body: SchemaName }>(
  endpoint: E,
  body: BodyOf<E>,
): Promise<PublicAnswer<DataOf<E>>> => {
  try {
    const response = await fetch(`/api${endpoint.path}`, {
      method: endpoint.method.toUpperCase(),
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    const envelope = (await response.json()) as Envelope<DataOf<E>>;
    return { ...envelope, httpStatus: response.status };
  } catch {
    return { status: 0, message: UNREACHABLE, data: undefined as DataOf<E>, httpStatus: 0 };
  }
};
