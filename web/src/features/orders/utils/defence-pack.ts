import { ORDER_PAGE, type BodyOf } from "@etd/contract/endpoints";
import { urlOf } from "../../../lib/api-client.ts";
import { readStoredSession } from "../../../lib/session.ts";

/**
 * ORDER-13: the defence pack answers the PDF itself (not the JSON envelope), so it is fetched here
 * rather than through callApi, at the endpoint its declaration names. `target` is the tab opened
 * on the click (a tab opened after an await would be a blocked popup); it is sent to the PDF, or
 * closed on a refusal. Returns the server's message when it refused.
 */
export const openDefencePack = async (orderId: string, defencePackType: 1 | 2, target: Window | null): Promise<string | undefined> => {
  const endpoint = ORDER_PAGE.getDefencePackPdf;
  const session = readStoredSession();
  let response: Response;
  try {
    response = await fetch(`/api${urlOf(endpoint, {})}`, {
      method: endpoint.method.toUpperCase(),
      headers: { "content-type": "application/json", ...(session ? { authorization: session.accessToken } : {}) },
      body: JSON.stringify({ orderId, defencePackType } satisfies BodyOf<typeof endpoint>),
    });
  } catch {
    target?.close();
    return "The server could not be reached. Please check your connection.";
  }
  if (!response.ok || !(response.headers.get("content-type") ?? "").includes(endpoint.file)) {
    target?.close();
    const body = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined;
    return typeof body?.message === "string" ? body.message : `The server answered ${response.status}.`;
  }
  const url = URL.createObjectURL(await response.blob());
  if (target && !target.closed) target.location.href = url;
  else window.open(url, "_blank");
  // The new tab has loaded the bytes by then; the URL is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return undefined;
};
