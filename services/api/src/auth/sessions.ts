import { migrateTables, type SqlDriver } from "@etd/event-store";

/*
 * Revoked sessions (issue 9 item 7, docs/decisions/0008-sessions.md). A token names its session
 * (`sid`); signing out records that id here, and `authenticate` refuses a token whose session is
 * listed, on every path (header or cookie) and in every API process, since the table is in the
 * shared database. A row is needed only while its token could still be presented: rows whose
 * token has expired are pruned, with a day's margin for clocks that disagree.
 *
 * Ending every session of a member at once (password change, deletion) stays with the
 * credential's session generation; this table ends one session.
 */

export const SESSIONS_SQL = /* sql */ `
create table if not exists staff_session_revocations (
  session_id text primary key,
  staff_id text not null,
  expires_at timestamptz not null,
  revoked_at timestamptz not null default now()
);
`;

export interface RevokedSession {
  readonly sessionId: string;
  readonly staffId: string;
  /** The token's expiry, in milliseconds since the epoch: after it the row is no longer needed. */
  readonly expiresAt: number;
}

export interface SessionRevocations {
  /** Ends the session for good; revoking it again changes nothing. */
  revoke(session: RevokedSession): Promise<void>;
  isRevoked(sessionId: string): Promise<boolean>;
  /**
   * Called in this process right after a revocation, so that this process's open live streams of
   * that session close at once; other processes notice at their next check.
   */
  onRevoked(listener: (sessionId: string) => void): () => void;
}

export const createSessionRevocations = async (db: SqlDriver): Promise<SessionRevocations> => {
  await migrateTables(db, SESSIONS_SQL);
  const listeners = new Set<(sessionId: string) => void>();
  return {
    revoke: async ({ sessionId, staffId, expiresAt }) => {
      await db.query(
        `insert into staff_session_revocations (session_id, staff_id, expires_at) values ($1, $2, $3)
         on conflict (session_id) do nothing`,
        [sessionId, staffId, new Date(expiresAt).toISOString()],
      );
      await db.query("delete from staff_session_revocations where expires_at < now() - interval '1 day'");
      for (const listener of listeners) listener(sessionId);
    },
    isRevoked: async (sessionId) =>
      (await db.query("select 1 from staff_session_revocations where session_id = $1", [sessionId])).length > 0,
    onRevoked: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
};
