import { Button } from "react-aria-components";
import { paginationRange } from "../pagination-range.ts";

/**
 * The page buttons of QUEUE-2: Previous, the pages with ellipses (one sibling on each side of the
 * current page, every page when there are at most six), Next. The current page is marked for
 * assistive technology with aria-current.
 */
export const Pagination = ({ page, totalPages, onPageChange }: { page: number; totalPages: number; onPageChange: (page: number) => void }) => {
  if (totalPages <= 1) return null;
  const items = paginationRange(page, totalPages);
  return (
    <nav aria-label="Pagination" className="queue-pagination">
      <ul>
        <li>
          <Button className="page-button" isDisabled={page <= 1} onPress={() => onPageChange(page - 1)} aria-label="Previous page">
            ‹ Previous
          </Button>
        </li>
        {items.map((item) =>
          typeof item === "number" ? (
            <li key={item}>
              <Button
                className="page-button"
                aria-label={`Page ${item}`}
                aria-current={item === page ? "page" : undefined}
                onPress={() => item !== page && onPageChange(item)}
              >
                {item}
              </Button>
            </li>
          ) : (
            <li key={item} className="pagination-ellipsis">
              …
            </li>
          ),
        )}
        <li>
          <Button className="page-button" isDisabled={page >= totalPages} onPress={() => onPageChange(page + 1)} aria-label="Next page">
            Next ›
          </Button>
        </li>
      </ul>
    </nav>
  );
};
