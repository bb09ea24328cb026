import { ROLES, type Role } from "./vocabulary.ts";

/*
 * The one permission matrix (000 §6, and the decisions where the spec is silent). Every
 * endpoint names one action; the server checks it before anything else runs, so a menu entry
 * hidden in the UI is never the only guard. The web app reads the same matrix to decide what to
 * offer. Rules that depend on the payload (soft delete versus a status move, permanent delete)
 * name their action per request.
 */

const EVERYONE = ROLES;
const ADMIN_AND_MANAGER: readonly Role[] = ["Admin", "Manager"];

export const PERMISSIONS = {
  "session.read": EVERYONE,
  /** AUTH-8, SHELL-1: Change Password is Admin and Manager. */
  "password.change": ADMIN_AND_MANAGER,
  "orders.read": EVERYONE,
  /** Issue 16 D: CSV export of queues, searches and reports, Admin and Manager only (passport data leaving the back office). */
  "orders.export": ADMIN_AND_MANAGER,
  /** SHELL-1: Order History is hidden from Telecaller. */
  "orders.history": ["Admin", "Manager", "Team", "Night Staff"],
  /**
   * ADMIN-7: Order Processed is Admin only; the Processed By counts (ADMIN-5) sum that list up, so
   * they are too, on screen and as CSV (issue 25). The dashboard's "processed today" per member is
   * not this report: issue 27 gives the team's day, today only, to whoever oversees it
   * ("dashboard.team", Admin and Manager); any other range stays Admin only.
   */
  "orders.processed": ["Admin"],
  "order.assign": EVERYONE,
  "order.move-to-original": EVERYONE,
  "order.refunded": EVERYONE,
  "order.change-status": EVERYONE,
  /** QUEUE-8: delete is Admin and Manager. */
  "order.delete": ADMIN_AND_MANAGER,
  /** DESIGN §4: erasing personal data is Admin only. */
  "order.delete-permanently": ["Admin"],
  /**
   * QUEUE-12: changing an order assigned to someone else. The order decider holds the rule (its
   * OVERSEERS); the page reads it here to offer its forms only to who may use them.
   */
  "order.change-others": ADMIN_AND_MANAGER,
  "order.remark": EVERYONE,
  "order.upload-document": EVERYONE,
  "order.mail": EVERYONE,
  "order.invoice": EVERYONE,
  "order.transaction-details": EVERYONE,
  "order.defence-pack": EVERYONE,
  /** ADMIN-4: Country Order List is all roles (000 §6). */
  "reports.read": EVERYONE,
  /** ADMIN-1: Manage Team, including delete, is Admin and Manager. */
  "staff.manage": ADMIN_AND_MANAGER,
  /** ADMIN-2: Gateway Setting is Admin and Manager. */
  "gateways.manage": ADMIN_AND_MANAGER,
  "audit.read": ADMIN_AND_MANAGER,
  /** Issue 27: the whole team's day at a glance; everyone else sees their own line and figures. */
  "dashboard.team": ADMIN_AND_MANAGER,
  /** Issue 16: removing a member's second factor (a lost phone) is Admin only; the decider says so too. */
  "team.reset-two-factor": ["Admin"],
  /**
   * Issue 27: the service-level policy and its versions are read by who oversees the work (Admin,
   * Manager: the screen, read-only for a Manager); only an Admin sets it, as its decider says too.
   * An order's clock is the order page's: "orders.read".
   */
  "service-levels.read": ADMIN_AND_MANAGER,
  "service-levels.set": ["Admin"],
  /** Issue 28: the operator's screen (read models, reactors, the log) and its actions are Admin only; the operations decider says so too. */
  "operations.manage": ["Admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;

export const isAllowed = (role: Role, action: Action): boolean => (PERMISSIONS[action] as readonly Role[]).includes(role);
