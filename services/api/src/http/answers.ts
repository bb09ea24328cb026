/*
 * The statuses that several endpoints' handlers answer alike, for their declarations (issue 26,
 * ADR 0031). The layer's own (200, 400, 401, 403, 413, 415) are derived in endpoint.ts; a status
 * declared here too has its meaning added to the layer's.
 */

/**
 * The statuses an endpoint answers, each with what it means, for the OpenAPI document. The layer's
 * own (success, a refused input, the guard's refusals, a body too large) are derived from the
 * declaration (endpoint.ts); an endpoint declares those its handler adds (404, 409, 429, 503, …).
 */
export type Answers = { readonly [status: number]: string };

/** Statuses answered for several reasons: each reason, joined. */
export const withAnswers = (...sets: readonly (Answers | undefined)[]): Answers => {
  const joined: Record<number, string> = {};
  for (const set of sets) {
    for (const [status, description] of Object.entries(set ?? {})) {
      const code = Number(status);
      joined[code] = joined[code] === undefined ? description : `${joined[code]}; or: ${description}`;
    }
  }
  return joined;
};

/** A command on one order or several (runOrderCommand, runForEachOrder): the order decider's refusals. */
export const ORDER_COMMAND_ANSWERS: Answers = {
  400: "The order's state does not allow it (the decider's message), or expectedVersion sent with several orders",
  403: "The order is another member's: read-only below Manager (QUEUE-12)",
  404: "The order does not exist",
  409: "The order changed first: the message names who and when, data what changed; in a bulk action, some orders were refused (data.refused)",
};

/** A change to a staff account (commands/staff-accounts.ts): the staff decider's refusals and the credentials' checks. */
export const STAFF_ACCOUNT_ANSWERS: Answers = {
  400: "The staff decider refuses the values",
  403: "Only an Admin may change an Admin, a Manager's role or password, and no one their own role",
  404: "The team member does not exist",
  409: "The e-mail is another member's, the last Admin would go, or the account changed first",
};

/** The traveller's pages: every request counts against the address's limit (rate-limit.ts). */
export const PUBLIC_RATE_LIMITED: Answers = {
  429: "Too many requests from this address: the message says in how many seconds to try again",
};
