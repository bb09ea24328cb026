import type { OrderStatus, ProcessingMode, Role } from "./vocabulary.ts";
import type { PageSize } from "./queues.ts";

/*
 * What the API answers, as the web app reads it. Every answer is the specs' envelope (CROSS-1);
 * the shapes of `data` below are produced by the read models and the command endpoints, which
 * declare their results with these types, so a change here fails the typecheck on both sides.
 */

/** `{status: 1|0, message, data}`; a few answers carry more top-level keys (sign-in's `jwtToken`, list totals). */
export interface Envelope<T = unknown> {
  readonly status: 0 | 1;
  readonly message: string;
  readonly data: T;
  readonly [key: string]: unknown;
}

/**
 * A bulk command's `data` (QUEUE-8..11): which orders changed and, when some were refused
 * (status 0), which and why. Each order changes on its own, so the changed ones stay changed.
 */
export interface BulkChangeAnswer {
  readonly changed?: readonly string[];
  readonly refused?: readonly { readonly orderId: string; readonly message: string }[];
  readonly position?: string | null;
}

/**
 * One order as the member saw it when selecting all across pages (issue 16): what
 * select-all-orders answers for each order, and what a bulk command's `asSelected` sends back so
 * the server leaves alone any order that changed since.
 */
export interface SelectedOrder {
  readonly orderId: string;
  /** The status's name, e.g. "New". */
  readonly process_status: OrderStatus;
  /** The assignee's staff id; null when nobody holds the order. */
  readonly assign_to_id: string | null;
}

/** The signed-in staff member, as sign-in's `data` and `/user_info` describe them (AUTH-3, AUTH-9). */
export type StaffUser = {
  readonly id: string;
  readonly name: string;
  /** The role, named `type` as in the spec (000 §3). */
  readonly type: Role;
  readonly email?: string | undefined;
};

/** Sign-in's `data` (ADR 0003): the token and who it belongs to. */
export type SignedInUser = StaffUser & {
  readonly accessToken: string;
  readonly email: string;
};

/** Sign-in's `data` once signed in, after either step: a member whose role must use two-factor sign-in and has not set it up is told so. */
export type SignInAnswer = SignedInUser & { readonly twoFactorSetupRequired?: boolean };

/** A month tile of the future-orders calendar (ADMIN-3). */
export interface FutureMonthTile {
  /** 1 (January) to 12 (December): the tiles run Jan to Dec. */
  readonly month: number;
  readonly name: string;
  /** The process month this tile stands for, "2025-04". */
  readonly processMonth: string;
  /** Future orders due in that month (New or Priority, unassigned, after today). */
  readonly count: number;
}

/** 001 §3 "Country summary row", with the country's name for the Country column (ADMIN-4). */
export interface CountryOrdersRow {
  /** The id the customer-facing site sent (an ISO code for the demo data); "" when it sent none. */
  readonly citizenship_id: string;
  /** The country's name, as last sent by the site; "Not stated" when it sent neither. */
  readonly citizenship: string;
  readonly count: number;
  readonly standard_count: number;
  readonly priority_count: number;
  /** Of `count`, the orders whose processing date is after `today`. */
  readonly future_count: number;
}

/** 001 §3 "Processed summary row" (ADMIN-5), with the staff member's id beside the name. */
export interface ProcessedByRow {
  readonly processed_by_id: string;
  /** The staff member's current name. */
  readonly processed_by: string;
  readonly count: number;
}

/** One line of the Order Processed list (ADMIN-7). No personal data: the View link opens the rest. */
export interface ProcessedOrderRow {
  readonly order_id: string;
  readonly processed_by_id: string;
  readonly processed_by: string;
  /** When the last document was uploaded, ISO 8601 UTC. */
  readonly processed_at: string;
  readonly status: OrderStatus;
  readonly processing_mode: ProcessingMode;
  /** YYYY-MM-DD */
  readonly processing_date: string;
  readonly citizenship: string;
  readonly created_at: string;
}

/** One page of the Order Processed list (ADMIN-7): its lines as `list`, and the total the pagination counts. */
export interface ProcessedOrdersPage {
  readonly list: readonly ProcessedOrderRow[];
  /** Every processed order in the range. */
  readonly total: number;
  readonly page: number;
  readonly limit: PageSize;
}

/** What the Password column shows for every member: not derived from anything. */
export const PASSWORD_MASK = "******";

/** A row of the Team Member List (ADMIN-1). */
export interface TeamMemberRow {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  /** The role, named `type` as in the spec's team member (000 §3). */
  readonly type: Role;
  readonly password: typeof PASSWORD_MASK;
  readonly added_at: string;
  readonly updated_at: string;
  /** When a password was last set after the member was added; null if never. */
  readonly password_changed_at: string | null;
  /** Whether the member signs in with a second factor (AUTH-3, issue 16): Manage Team's 2FA column. */
  readonly twoFactor: boolean;
  /** The most open assigned orders Take next lets the member hold (issue 27); null: no limit. */
  readonly capacity: number | null;
  /** The orders assigned to the member and not closed (Completed, Completed Refund, Deleted): measured against `capacity`. */
  readonly openOrders: number;
}

/** One member for the edit form: the password field starts empty (an empty password keeps the current one). */
export interface TeamMemberInfo extends Omit<TeamMemberRow, "password"> {
  readonly password: "";
}

/** Sign-in's answer for a member with two-factor sign-in (`status: 0`, HTTP 200): no token yet (issue 16). */
export interface TwoFactorChallenge {
  readonly secondStep: "totp";
  /** Opaque; sent back with the code to `/admin/admin-login/two-factor`. */
  readonly challenge: string;
  readonly expiresInSeconds: number;
}

/**
 * The message of the 403 every staff endpoint but a few answers a member whose role must use
 * two-factor sign-in and who has not set it up (issue 16): the web app knows that refusal by it,
 * and shows only the setup page.
 */
export const TWO_FACTOR_REQUIRED = "Two-factor sign-in is required for your role. Please set it up to continue.";

/*
 * Refusals that an endpoint's declaration names as the meaning of a status (contract/src/endpoints),
 * so the OpenAPI document and the answer say the same words from one place.
 */
export const INVALID_SIGN_IN = "Invalid email or password.";
export const TEAM_MEMBER_NOT_FOUND = "Team member not found.";
/** The traveller's pages: the document and its history need the order tracked first in this browser. */
export const TRACK_FIRST = "Please track your order with its Order ID and Email ID first.";
export const NO_ORDER_WITH_ID_AND_EMAIL = "We could not find an order with this Order ID and Email ID.";
export const NO_ORDER_WITH_ID = "We could not find an order with this Order ID.";

/** The second sign-in step's 401 when its challenge has expired or is spent: the form goes back to the first step. */
export const SIGN_IN_EXPIRED = "Your sign-in has expired. Please sign in again.";

/** `GET /admin/two-factor`: the signed-in member's second factor. */
export interface TwoFactorStatus {
  readonly enabled: boolean;
  /** Their role must use it (REQUIRE_2FA_FOR). */
  readonly required: boolean;
  readonly recoveryCodesLeft: number;
}

/** `POST /admin/two-factor/setup`: what the authenticator app needs. */
export interface TwoFactorSetup {
  /** Base32, for typing it in by hand. */
  readonly secret: string;
  readonly otpauthUrl: string;
  /** A `data:image/svg+xml;base64,` URL of the QR code. */
  readonly qrCode: string;
}

/** One gateway for one customer domain (000 §3, ADMIN-2); `id` is what payment-gateway-setting takes back. */
export interface PaymentGatewayRow {
  readonly id: string;
  readonly gateway_name: string;
  /** '1' for the domain's active gateway, as the spec writes it. */
  readonly is_active: "1" | "0";
  readonly is_secondary_domain: 0 | 1;
}
