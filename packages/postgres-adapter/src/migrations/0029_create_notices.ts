import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Email notices (issue 42, docs/notices.md): one row per notice and person, written by the outbox in
 * the event's transaction (or by the reminder scheduler), sent by the notice worker.
 *
 * - `dedupe_key` is unique: `<event id>:<user id>`, or `reminder:<session id>:<user id>`, so a replay
 *   of the same write, or two instances scheduling the same reminder, insert nothing more.
 * - `event_id` is null for a reminder; an event's removal (none today) keeps the notice.
 * - The user, athlete or session gone, its notices go too: there is nobody or nothing to tell about.
 *   Except a cancellation, written once its session is deleted: it names no session and keeps the
 *   session's id, title and start as they were (`former_session_id`, `session_title`, `session_start`).
 * - `suppressed`: a notice the recipient's preferences stopped (decideDelivery in the worker).
 * - `notices_due_idx` answers the claim: the pending notices by due time, the others not indexed.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE notices (
    id bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY,
    dedupe_key text NOT NULL UNIQUE,
    event_id bigint REFERENCES attendance_events (id) ON DELETE SET NULL,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    athlete_id bigint NOT NULL REFERENCES athletes (id) ON DELETE CASCADE,
    session_id bigint REFERENCES sessions (id) ON DELETE CASCADE,
    former_session_id bigint,
    session_title text,
    session_start timestamp without time zone,
    kind text NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'suppressed')),
    attempts integer NOT NULL DEFAULT 0,
    due_at timestamptz NOT NULL DEFAULT now(),
    lease_owner text,
    leased_until timestamptz,
    last_error text,
    sent_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT notices_one_session CHECK ((session_id IS NULL) = (former_session_id IS NOT NULL))
  )`
  yield* sql`CREATE INDEX notices_due_idx ON notices (due_at) WHERE status = 'pending'`
  // The retention purge (docs/privacy.md) takes the oldest settled notices first.
  yield* sql`CREATE INDEX notices_settled_idx ON notices (created_at) WHERE status <> 'pending'`
  // The cascades from a user, an athlete or a session find their notices by these.
  yield* sql`CREATE INDEX notices_user_idx ON notices (user_id)`
  yield* sql`CREATE INDEX notices_athlete_idx ON notices (athlete_id)`
  yield* sql`CREATE INDEX notices_session_idx ON notices (session_id)`
  // Whether an event's notices exist: the look for the promotions the refill trigger wrote.
  yield* sql`CREATE INDEX notices_event_idx ON notices (event_id)`
  // The reminder scheduler reads the sessions whose cut-off is near: by `creneau` when they have none
  // (sessions_creneau_idx), by this when they have one.
  yield* sql`CREATE INDEX session_attendance_cutoff_idx ON session_attendance (reply_cutoff)
    WHERE reply_cutoff IS NOT NULL`
})
