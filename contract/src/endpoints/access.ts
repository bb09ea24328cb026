import { INVALID_SIGN_IN, NO_ORDER_WITH_ID_AND_EMAIL, TRACK_FIRST, type SignInAnswer, type StaffUser, type TwoFactorSetup, type TwoFactorStatus } from "../answers.ts";
import type { DownloadAnswer, TrackOrderAnswer } from "../public-page.ts";
import { answer, endpoints, PUBLIC_RATE_LIMITED, STAFF_ACCOUNT_ANSWERS, withAnswers } from "./declare.ts";

/** Sign-in, sessions, two-factor, the traveller's pages and intake. */
export const ACCESS = endpoints({
  signIn: {
    method: "post",
    path: "/admin/admin-login",
    guard: "public",
    summary: "Sign in (AUTH-3): answers the session token as jwtToken and in data.accessToken",
    body: "LoginRequest",
    data: answer<SignInAnswer>(),
    answers: {
      200: "Status 0 for a member with two-factor sign-in: the second step's challenge (data.secondStep, data.challenge)",
      401: INVALID_SIGN_IN,
      429: "Too many failed sign-in attempts from this address: the message says in how many minutes to try again",
    },
  },
  signInSecondStep: {
    method: "post",
    path: "/admin/admin-login/two-factor",
    guard: "public",
    summary: "Sign in, second step (AUTH-3, issue 16): the challenge sign-in answered, with the authenticator's code or a recovery code; answers as sign-in does",
    body: "TwoFactorLoginRequest",
    data: answer<SignInAnswer>(),
    answers: {
      200: "Status 0: the second step's code is already used (data names it)",
      401: "The challenge has expired or is spent, or the code or recovery code is not valid",
      429: "Too many wrong codes or failed sign-ins: the message says in how many minutes to try again",
    },
  },
  userInfo: {
    method: "get",
    path: "/user_info",
    guard: "session.read",
    beforeTwoFactor: true,
    summary: "The signed-in staff member (AUTH-9)",
    // From the credentials, which every command updates in its own transaction: no read model to wait for.
    reads: [],
    data: answer<StaffUser>(),
  },
  changePassword: {
    method: "post",
    path: "/admin/change-password",
    guard: "password.change",
    summary: "Change the signed-in member's password; every session of theirs ends (AUTH-8)",
    body: "ChangePasswordRequest",
    changes: ["staff", "order_details"],
    data: answer<null>(),
    answers: STAFF_ACCOUNT_ANSWERS,
  },
  signOut: {
    method: "post",
    path: "/admin/logout",
    guard: "session.read",
    beforeTwoFactor: true,
    summary: "Sign out (not in the spec; ADR 0008): ends this session on the server, for every request and open live stream, and clears the session cookie",
    // Nothing to send; anything sent is refused like any other bad input, and changes nothing.
    body: "LogoutRequest",
    changes: [],
    data: answer<null>(),
  },
  twoFactorStatus: {
    method: "get",
    path: "/admin/two-factor",
    guard: "session.read",
    beforeTwoFactor: true,
    reads: [],
    summary: "The signed-in member's two-factor sign-in: on or not, required for their role, recovery codes left (issue 16)",
    data: answer<TwoFactorStatus>(),
  },
  startTwoFactorSetup: {
    method: "post",
    path: "/admin/two-factor/setup",
    guard: "session.read",
    beforeTwoFactor: true,
    summary: "Start setting up two-factor sign-in (issue 16): a new secret, its otpauth URL and QR code; replaces any earlier unconfirmed one; 409 once it is on",
    body: "TwoFactorSetupRequest",
    // A JSON object must be sent, even an empty one: a request without a body is not "start again".
    readsInputItself: true,
    // The pending secret is the credentials' own; the staff read model learns of two-factor sign-in when it is enabled.
    changes: [],
    data: answer<TwoFactorSetup>(),
    answers: { 409: "Two-factor sign-in is already on" },
  },
  enableTwoFactor: {
    method: "post",
    path: "/admin/two-factor/enable",
    guard: "session.read",
    beforeTwoFactor: true,
    summary:
      "Turn two-factor sign-in on with a code from the app (issue 16); answers the ten recovery codes, the only time they are shown. Ends the member's other sessions: this one goes on with the new token answered (data.accessToken, and the session cookie)",
    body: "TwoFactorEnableRequest",
    changes: ["staff", "order_details"],
    data: answer<{ readonly recoveryCodes: readonly string[]; readonly accessToken: string; readonly position: string | null }>(),
    answers: { 400: "No setup is pending, or the code is not the app's", 409: "Two-factor sign-in is already on" },
  },
  resetTwoFactor: {
    method: "put",
    path: "/admin/reset-two-factor",
    guard: "team.reset-two-factor",
    summary: "Reset a member's two-factor sign-in (issue 16, Admin only): they sign in with their password alone, and their sessions end",
    body: "ResetTwoFactorRequest",
    changes: ["staff", "order_details"],
    data: answer<{ readonly position: string | null }>(),
    answers: STAFF_ACCOUNT_ANSWERS,
  },
  trackOrder: {
    method: "post",
    path: "/front/track-order",
    guard: "public",
    readOnly: true,
    summary: "Find an order by its id and the application's e-mail (PUBLIC-1); a match gets a 30-minute grant for that order as an HttpOnly cookie",
    body: "TrackOrderRequest",
    data: answer<TrackOrderAnswer>(),
    answers: withAnswers(PUBLIC_RATE_LIMITED, {
      404: NO_ORDER_WITH_ID_AND_EMAIL,
      429: "Too many failed attempts for this order: the message says in how many minutes to try again",
    }),
  },
  downloadDocument: {
    method: "post",
    path: "/front/download-passport-doc-pdf",
    guard: "public",
    summary: "With the order's grant: record a download of the current document and answer its link (PUBLIC-2)",
    body: "DownloadDocumentRequest",
    changes: ["order_details"],
    data: answer<DownloadAnswer>(),
    answers: withAnswers(PUBLIC_RATE_LIMITED, {
      403: TRACK_FIRST,
      404: "The order or the document was not found",
      409: "The order was permanently deleted",
    }),
  },
  /*
   * Its body is the write side's PlaceOrderRequest (@etd/write builds the command from it, with
   * its own messages), which the contract cannot name: the API's handler brings it (readingInput),
   * and the OpenAPI document is derived from it as from a named schema.
   */
  placeOrder: {
    method: "post",
    path: "/intake/orders",
    guard: "service",
    summary: "Place a paid order from the customer-facing site (service token)",
    readsInputItself: true,
    changes: ["queue", "order_details", "reports"],
    data: answer<{ readonly position: string | null }>(),
    answers: {
      400: "The payment is not an amount with two decimals and a currency code, or another field is not valid (the decider's message)",
      409: "An order with this id has been placed already",
    },
  },
});
