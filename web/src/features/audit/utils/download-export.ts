import type { EndpointDeclaration } from "@etd/contract/endpoints";
import { urlOf, type CallOf } from "../../../lib/api-client.ts";
import { readStoredSession } from "../../../lib/session.ts";

export interface Downloaded {
  readonly fileName: string;
  readonly lines: number;
}

const fileNameOf = (disposition: string | null, fallback: string): string => {
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? "");
  return match?.[1] ? decodeURIComponent(match[1]) : fallback;
};

/**
 * An export (a declared endpoint that answers a JSON lines file) is a file, not an envelope, and
 * the API takes the session only from the Authorization header, which a plain link cannot send:
 * the file is fetched with it and handed to the browser as a download. A refusal comes back as
 * the envelope's message.
 */
export const downloadExport = async <E extends EndpointDeclaration>(
  endpoint: E,
  call: CallOf<E>,
  fallbackName: string,
): Promise<Downloaded | { readonly refused: string }> => {
  const session = readStoredSession();
  let response: Response;
  try {
    response = await fetch(`/api${urlOf(endpoint, call as Parameters<typeof urlOf>[1])}`, { headers: session ? { authorization: session.accessToken } : {} });
  } catch {
    return { refused: "The server could not be reached. Please check your connection." };
  }
  const type = response.headers.get("content-type") ?? "";
  if (!response.ok || type.includes("application/json")) {
    const body = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined;
    return { refused: typeof body?.message === "string" ? body.message : `The server answered ${response.status}.` };
  }
  const text = await response.text();
  const fileName = fileNameOf(response.headers.get("content-disposition"), fallbackName);
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the bytes by then.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { fileName, lines: text.split("\n").filter((line) => line.trim() !== "").length };
};
