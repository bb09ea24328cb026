import { isAllowed } from "@etd/contract";
import { useAtomValue } from "jotai";
import { sessionAtom } from "../../lib/session.ts";

/**
 * "Export CSV" (issue 16 D): a plain link to the export endpoint, so the browser's own download
 * manager fetches the file as the server streams it (the session cookie signs the request, as for
 * the document links) and the page never holds it. Offered to Admin and Manager only, the roles
 * the server lets export (`orders.export`); the server checks again. `params` are the screen's
 * current search; empty values are left out.
 */
export const ExportCsvLink = ({ path, params, label = "Export CSV" }: { path: string; params: Record<string, string | undefined>; label?: string }) => {
  const session = useAtomValue(sessionAtom);
  if (!session || !isAllowed(session.role, "orders.export")) return null;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value.trim() !== "") query.set(name, value.trim());
  const search = query.toString();
  return (
    <a className="button export-link" href={`/api${path}${search === "" ? "" : `?${search}`}`} download>
      {label}
    </a>
  );
};
