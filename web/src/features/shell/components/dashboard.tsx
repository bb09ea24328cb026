import { Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { sessionAtom } from "../../../lib/session.ts";
import { useFolderCounts } from "../hooks/folder-counts.ts";
import { DASHBOARD_TILES } from "../../../lib/menu-entries.ts";
import { DayAtAGlance } from "./day-at-a-glance.tsx";

/** `/admin` (SHELL-4): one tile per working folder with its count, each opening the folder; then the day at a glance (issue 27). */
export const Dashboard = () => {
  const session = useAtomValue(sessionAtom);
  const counts = useFolderCounts(session?.name ?? "");
  return (
    <section className="page" aria-labelledby="dashboard-title">
      <h1 id="dashboard-title" className="page-title">
        Dashboard
      </h1>
      <ul className="tiles">
        {DASHBOARD_TILES.map((tile) => (
          <li key={tile.to}>
            <Link to={tile.to} className="tile">
              <span className="tile-label">{tile.label}</span>
              <span className="tile-count" data-count={tile.count}>
                {counts ? counts[tile.count] : "–"}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <DayAtAGlance />
    </section>
  );
};
