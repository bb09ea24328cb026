import type { ReactNode } from "react";
import { Link as AriaLink } from "react-aria-components";
import { createLink } from "@tanstack/react-router";
import type { Envelope } from "../../lib/api-client.ts";
import "../../styles/admin.css";

/** A react-aria link that navigates through the router (typed `to`, `params`, `search`). */
export const RouterLink = createLink(AriaLink);

export const AdminPage = ({ id, title, children }: { id: string; title: string; children: ReactNode }) => (
  <section className="page admin-page" aria-labelledby={id}>
    <h1 id={id} className="page-title">
      {title}
    </h1>
    {children}
  </section>
);

export const AdminPanel = ({ id, heading, children }: { id: string; heading: string; children: ReactNode }) => (
  <section className="card admin-panel" aria-labelledby={id}>
    <h2 id={id} className="card-title">
      {heading}
    </h2>
    {children}
  </section>
);

/** A read the server refused (403, 404, …): its own sentence, in place of what would be shown. */
export const ServerRefusal = ({ answer }: { answer: Envelope }) => (
  <p className="admin-refusal" role="alert">
    {answer.message}
  </p>
);

/** The envelope's rows, or none when the server refused or sent something that is not a list. */
export const rowsOf = <R,>(answer: Envelope<readonly R[] | null>): readonly R[] =>
  answer.status === 1 && Array.isArray(answer.data) ? (answer.data as readonly R[]) : [];

/**
 * A list's scroll area (000 §2: fixed header over a 550px body). It can scroll, so it must be
 * reachable from the keyboard, and named for the region landmark it becomes.
 */
export const TableScroll = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
    {children}
  </div>
);

export const EmptyRow = ({ columns }: { columns: number }) => (
  <tr>
    <td className="table-empty" colSpan={columns}>
      No records found
    </td>
  </tr>
);
