import type { FolderCounts } from "@etd/contract";
import { Link } from "@tanstack/react-router";
import type { Role } from "../../../lib/session.ts";
import { menuFor } from "../../../lib/menu-entries.ts";
import { CountBadge } from "./count-badge.tsx";

/**
 * The side menu (SHELL-1): the entries the role may see, each with its folder's count. The
 * router marks the current entry with aria-current="page", which the CSS highlights.
 */
export const SideMenu = ({ role, counts, onNavigate }: { role: Role | undefined; counts: FolderCounts | undefined; onNavigate?: () => void }) => (
  <nav aria-label="Main menu" className="side-menu">
    <ul>
      {menuFor(role).map((entry) => (
        <li key={entry.to}>
          <Link to={entry.to} className="side-menu-link" activeOptions={{ exact: false }} onClick={onNavigate}>
            <span className="side-menu-label">{entry.label}</span>
            {entry.count && <CountBadge value={counts?.[entry.count]} name={entry.count} />}
          </Link>
        </li>
      ))}
    </ul>
  </nav>
);
