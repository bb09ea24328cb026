import { isAllowed, type OrderDetails, type OrderViewer } from "@etd/contract";
import { ORDERS } from "@etd/contract/endpoints";
import { useQuery } from "@tanstack/react-query";
import type { MouseEvent } from "react";
import { useAtomValue } from "jotai";
import { Tab, TabList, TabPanel, Tabs } from "react-aria-components";
import { ServiceLevelPanel } from "../../../components/service-level-panel.tsx";
import { Loading } from "../../../components/ui/loading.tsx";
import { sessionAtom, type Session } from "../../../lib/session.ts";
import { OrderReadError, orderDetailsQuery } from "../utils/order-queries.ts";
import { useOrderCommands } from "../hooks/use-decisive-command.ts";
import { usePresence } from "../hooks/use-presence.ts";
import { CommentHistory, DownloadHistoryTable, OrderRecordSections } from "../sections/index.ts";
import { AuditTab } from "./audit-tab.tsx";
// The order page's styles load with its chunk, not with every screen's (P6).
import "../../../styles/order.css";
import "../../../styles/order-page.css";
import { ChangedDialog } from "./changed-dialog.tsx";
import { DefencePacks } from "./defence-packs.tsx";
import { EmailForm, mailUnavailable } from "./email-form.tsx";
import { EmailHistory } from "./email-history.tsx";
import { MoveButtons } from "./move-buttons.tsx";
import { RemarksPanel } from "./remarks-panel.tsx";
import { UploadDocument } from "./upload-document.tsx";

/**
 * QUEUE-12: below Manager, an order assigned to someone else is read-only (the server refuses
 * its commands too); Admin and Manager work any order.
 */
export const isReadOnlyFor = (session: Pick<Session, "id" | "role"> | undefined, order: Pick<OrderDetails, "assign_to_id">): boolean =>
  session === undefined || (!isAllowed(session.role, "order.change-others") && order.assign_to_id !== null && order.assign_to_id !== session.id);

/** "Also viewing": colleagues with this order open now (one badge per member, however many tabs). */
const Presence = ({ viewers }: { readonly viewers: readonly OrderViewer[] }) => {
  const members = [...new Map(viewers.map((viewer) => [viewer.staffId, viewer])).values()];
  return (
    <p className="order-presence" aria-live="polite">
      {members.length > 0 && (
        <>
          Also viewing:{" "}
          {members.map((viewer) => (
            <span key={viewer.staffId} className="badge order-presence-badge" data-staff-id={viewer.staffId}>
              {viewer.name} ({viewer.role})
            </span>
          ))}
        </>
      )}
    </p>
  );
};

/** Brings a section's heading into view and gives it the focus, so the next Tab starts in that section. */
const jumpTo = (event: MouseEvent<HTMLAnchorElement>, headingId: string) => {
  const heading = document.getElementById(headingId);
  if (!heading) return;
  event.preventDefault();
  heading.setAttribute("tabindex", "-1");
  heading.focus();
  heading.scrollIntoView({ block: "start" });
};

/**
 * Links to the sections staff use on most orders (the UX review: Add Comment and Move Order sit
 * some 3,800 px down, below the traveller's whole declaration, whose order 001 §2 fixes).
 */
const SectionLinks = ({ readOnly }: { readonly readOnly: boolean }) => {
  const links: readonly (readonly [string, string])[] = [
    ["upload-document-title", "Upload Document"],
    ["email-history-title", "Email History"],
    ["download-history-title", "Download History"],
    ...(readOnly ? [] : ([["remarks-title", "Add Comment"], ["move-title", "Move Order"]] as const)),
    ["comment-history-title", "Comment History"],
  ];
  return (
    <nav className="order-section-links" aria-label="Sections of this order">
      {links.map(([id, label]) => (
        <a key={id} href={`#${id}`} onClick={(event) => jumpTo(event, id)}>
          {label}
        </a>
      ))}
    </nav>
  );
};

/** Every section of the order, in 001 §2's order; the forms and buttons only when this member may change it. */
const OrderSections = ({ order, session, readOnly }: { readonly order: OrderDetails; readonly session: Session; readonly readOnly: boolean }) => {
  const commands = useOrderCommands(order);
  return (
    <>
      <SectionLinks readOnly={readOnly} />
      {/* Issue 27: why the order is due when it is, first, as staff decide what to do next. */}
      <ServiceLevelPanel orderId={order.order_id} />
      {!readOnly && <DefencePacks order={order} commands={commands} />}
      <EmailHistory order={order} commands={commands} readOnly={readOnly} />
      <UploadDocument order={order} commands={commands} readOnly={readOnly} />
      <OrderRecordSections order={order} />
      <section className="record-section order-section" aria-labelledby="download-history-title" data-section="download-history">
        <h2 id="download-history-title">Download History</h2>
        <DownloadHistoryTable order={order} />
        {!readOnly && (
          <EmailForm
            className="order-reminder-form"
            initialEmail={order.email ?? ""}
            busy={commands.busy !== undefined}
            unavailable={mailUnavailable(order)}
            buttons={[{ label: "Sent Mail", provider: "aws" }]}
            onSend={(email, provider) => commands.run("Sent Mail", ORDERS.sendReminderMail, { body: { orderId: order.order_id, email, mailServiceProvider: provider } })}
          />
        )}
      </section>
      {!readOnly && (
        <RemarksPanel order={order} commands={commands}>
          <MoveButtons order={order} role={session.role} commands={commands} />
        </RemarksPanel>
      )}
      <section className="record-section order-section" aria-labelledby="comment-history-title" data-section="comment-history">
        <h2 id="comment-history-title">Comment History</h2>
        <CommentHistory order={order} />
      </section>
      <ChangedDialog retry={commands.retry} busy={commands.busy !== undefined} onAnyway={() => void commands.retryAnyway()} onCancel={commands.cancelRetry} />
    </>
  );
};

/** The order page (001 §2 "View order"): every section of one order, live, with presence and (Admin, Manager) its audit. */
export const OrderPage = ({ orderId }: { readonly orderId: string }) => {
  const session = useAtomValue(sessionAtom);
  const details = useQuery(orderDetailsQuery(orderId));
  const viewers = usePresence(orderId);
  // A failed refetch keeps the order shown (the next change or Refresh reads it again); only a
  // first read that fails shows why there is nothing to show.
  const order = details.data;
  if (order === undefined && details.isPending) return <Loading />;
  if (order === undefined || !session)
    return (
      <section className="page order-page">
        <h1 className="page-title">View Order</h1>
        <p role="alert">{details.error instanceof OrderReadError ? details.error.message : session ? "This order could not be loaded." : "Please sign in again."}</p>
      </section>
    );
  const readOnly = isReadOnlyFor(session, order);
  const sections = <OrderSections order={order} session={session} readOnly={readOnly} />;
  return (
    <section className="page order-page" aria-labelledby="order-page-title" data-status={order.process_status} data-version={order.version}>
      <div className="page-header">
        <h1 className="page-title" id="order-page-title">
          View Order {order.order_id}
        </h1>
        {/* Beside the title: colleagues arriving or leaving never move the page under the reader. */}
        <Presence viewers={viewers} />
        <span className="status-pill order-status">{order.process_status_label}</span>
      </div>
      {readOnly && (
        <p className="order-read-only" role="note">
          Assigned to {order.assign_to} — read only
        </p>
      )}
      {isAllowed(session.role, "audit.read") ? (
        <Tabs className="order-tabs">
          <TabList aria-label="Order views" className="order-tab-list">
            <Tab id="order" className="order-tab">
              Order
            </Tab>
            <Tab id="audit" className="order-tab">
              Audit
            </Tab>
          </TabList>
          <TabPanel id="order">{sections}</TabPanel>
          <TabPanel id="audit">
            <AuditTab orderId={order.order_id} />
          </TabPanel>
        </Tabs>
      ) : (
        sections
      )}
    </section>
  );
};
