import { isAllowed } from "@etd/contract";
import { Link, Outlet } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { sessionAtom } from "../../../lib/session.ts";
import { VerifyBadge } from "./verify-badge.tsx";
import "../../../styles/audit.css";

/*
 * The Audit area's frame (CARD-4): its screens' links and the log's verify badge, for whoever the
 * permission table lets read the audit ("audit.read": Admin, Manager). Anyone else who opens an
 * audit address sees the no-access view; the server refuses them every audit answer anyway.
 */

export const AuditNoAccess = () => (
  <section className="page audit-no-access" aria-labelledby="audit-no-access-title">
    <h1 id="audit-no-access-title" className="page-title">
      No access
    </h1>
    <p role="alert">The Audit area is for Admins and Managers only.</p>
    <Link to="/admin" className="button">
      Back to the dashboard
    </Link>
  </section>
);

export const AuditLayout = () => {
  const session = useAtomValue(sessionAtom);
  if (!session || !isAllowed(session.role, "audit.read")) return <AuditNoAccess />;
  return (
    <div className="audit-area">
      <div className="audit-bar">
        <nav aria-label="Audit screens" className="audit-nav">
          <ul>
            <li>
              <Link to="/admin/audit" activeOptions={{ exact: true }} className="audit-nav-link">
                Order replay
              </Link>
            </li>
            <li>
              <Link to="/admin/audit/queues" className="audit-nav-link">
                Queue at a moment
              </Link>
            </li>
            <li>
              <Link to="/admin/audit/staff" className="audit-nav-link">
                Staff activity
              </Link>
            </li>
          </ul>
        </nav>
        <VerifyBadge />
      </div>
      <Outlet />
    </div>
  );
};
