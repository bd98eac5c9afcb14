import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The outbox of attendance events and their deliveries to webhooks (issue 18).
 *
 * - `attendance_events`: written in the transaction of the change each tells; numbered in the
 *   order written, which per session is the order of the changes (they hold the session's lock).
 *   No reference to the session: the events of a deleted session are still delivered.
 * - `webhook_deliveries`: one row per event and webhook registered when the event was written;
 *   `pending` until delivered, due again at `due_at` after a failure, leased to one worker at a
 *   time (`lease_owner`, `leased_until`). `webhook_deliveries_waiting_idx` finds the next due and
 *   whether an earlier event of the same session still waits for the same webhook.
 * - `webhook_attempts`: the delivery log, every attempt with its outcome.
 *
 * Identity columns stop at 2^53-1, as every other (0008): an id a JSON number cannot hold exactly
 * is never handed out.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE attendance_events (
    id bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY,
    session_id bigint NOT NULL,
    type text NOT NULL CHECK (type IN ('reply', 'promotion', 'cancellation', 'presence')),
    data jsonb NOT NULL,
    occurred_at timestamptz NOT NULL DEFAULT now()
  )`
  yield* sql`CREATE TABLE webhooks (
    id bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY,
    url text NOT NULL,
    secret text NOT NULL
  )`
  yield* sql`CREATE TABLE webhook_deliveries (
    webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id bigint NOT NULL REFERENCES attendance_events (id) ON DELETE CASCADE,
    session_id bigint NOT NULL,
    pending boolean NOT NULL DEFAULT true,
    attempts integer NOT NULL DEFAULT 0,
    due_at timestamptz NOT NULL DEFAULT now(),
    lease_owner text,
    leased_until timestamptz,
    PRIMARY KEY (webhook_id, event_id)
  )`
  yield* sql`CREATE INDEX webhook_deliveries_waiting_idx ON webhook_deliveries (webhook_id, session_id, event_id)
    WHERE pending`
  yield* sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (event_id) WHERE pending`
  yield* sql`CREATE TABLE webhook_attempts (
    id bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY,
    webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id bigint NOT NULL,
    session_id bigint NOT NULL,
    attempt integer NOT NULL,
    at timestamptz NOT NULL,
    status_code integer,
    delivered boolean NOT NULL,
    error text
  )`
  yield* sql`CREATE INDEX webhook_attempts_webhook_idx ON webhook_attempts (webhook_id, id)`
})
