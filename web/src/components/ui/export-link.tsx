import { isAllowed } from "@etd/contract";
import type { EndpointDeclaration, QueryOf } from "@etd/contract/endpoints";
import { useAtomValue } from "jotai";
import { urlOf } from "../../lib/api-client.ts";
import { sessionAtom } from "../../lib/session.ts";

/** An export: a file (not the JSON envelope) that the session cookie may sign, so a plain link can fetch it. */
type ExportEndpoint = EndpointDeclaration & { readonly file: string; readonly sessionCookie: true };

/**
 * "Export CSV" (issue 16 D): a plain link to the export endpoint, so the browser's own download
 * manager fetches the file as the server streams it (the session cookie signs the request, as for
 * the document links) and the page never holds it. Offered to Admin and Manager only, the roles
 * the server lets export (`orders.export`); the server checks again. `query` is the screen's
 * current search; empty values are left out.
 */
export const ExportCsvLink = <E extends ExportEndpoint>({ endpoint, query, label = "Export CSV" }: { endpoint: E; query: QueryOf<E>; label?: string }) => {
  const session = useAtomValue(sessionAtom);
  if (!session || !isAllowed(session.role, "orders.export")) return null;
  // An export that takes no query (the dashboard's per-member table) has none.
  const filled = Object.entries((query ?? {}) as Record<string, unknown>).flatMap(([name, value]) =>
    typeof value !== "string" || value.trim() === "" ? [] : [[name, value.trim()] as const],
  );
  return (
    <a className="button export-link" href={`/api${urlOf(endpoint, { query: Object.fromEntries(filled) })}`} download>
      {label}
    </a>
  );
};
