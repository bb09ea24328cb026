import { useQuery } from "@tanstack/react-query";
import { readStoredSession } from "../../../lib/session.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** Where a stored file is served (ORDER-14): uploads/…, relative to the storage root. */
export const documentHref = (path: string) => `/uploads/${path.split("/").map(encodeURIComponent).join("/")}`;

/**
 * ORDER-14: a document link, shown as a link only once a HEAD request says the file is there
 * (a file deleted or never written is plain text, not a link that fails).
 */
export const DocumentLink = ({ path, label, missing = "File not available" }: { readonly path: string | null | undefined; readonly label: string; readonly missing?: string }) => {
  const href = path ? documentHref(path) : undefined;
  const exists = useQuery({
    queryKey: [...queryKeys.order_details, "file", href],
    enabled: href !== undefined,
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const session = readStoredSession();
      const response = await fetch(href!, { method: "HEAD", signal, headers: session ? { authorization: session.accessToken } : {} });
      return response.ok;
    },
  });
  if (!href) return <span className="muted">{missing}</span>;
  if (exists.data === true)
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" className="order-document-link">
        {label}
      </a>
    );
  return <span className="muted">{exists.isPending ? label : missing}</span>;
};
