import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Replies and marks of the athletes a session invites (issue 41, docs/membership.md): its own
 * athletes, and the members of its group on its day. Until now `session_replies` and
 * `attendance_marks` referenced `session_athletes`, so a member of the group could not have a row.
 *
 * - They now reference the session and the athlete (a session or an athlete deleted still takes
 *   them along).
 * - `invited_by_membership(groupe, day, athlete)`: whether the athlete is a member, on that day, of
 *   the group whose name the `groupe` is. A SQL function that the planner inlines, used by the
 *   repositories' statements and by the trigger below; `memberships_athlete_idx` answers it.
 * - An athlete taken out of a session's athletes loses its reply and its mark, as before (the
 *   trigger of migration 0018 then refills a freed place, under the session's lock), unless the
 *   session's group still invites it on the session's day. A session without a `creneau` invites
 *   the members of the database's current day (`current_date`; the repositories pass the club's
 *   day, the trigger has no club zone to read). A membership ended later removes nothing: the
 *   replies and marks already made are kept.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE session_replies DROP CONSTRAINT session_replies_session_id_athlete_id_fkey`
  yield* sql`ALTER TABLE session_replies
    ADD FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    ADD FOREIGN KEY (athlete_id) REFERENCES athletes (id) ON DELETE CASCADE`
  yield* sql`ALTER TABLE attendance_marks DROP CONSTRAINT attendance_marks_session_id_athlete_id_fkey`
  yield* sql`ALTER TABLE attendance_marks
    ADD FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    ADD FOREIGN KEY (athlete_id) REFERENCES athletes (id) ON DELETE CASCADE`
  // An athlete's deletion now reaches its marks through this key, not through session_athletes.
  yield* sql`CREATE INDEX attendance_marks_athlete_idx ON attendance_marks (athlete_id)`
  // "Who is invited" reads a group's members in athlete order; "a member's sessions" a group's
  // sessions by creneau (issue 41's scale: each one bounded statement).
  yield* sql`CREATE INDEX memberships_group_idx ON memberships (group_id, athlete_id)`
  yield* sql`CREATE INDEX sessions_groupe_idx ON sessions (groupe, creneau)`
  yield* sql.unsafe(`CREATE FUNCTION invited_by_membership(groupe text, day date, athlete bigint)
    RETURNS boolean LANGUAGE sql STABLE AS $$
      SELECT EXISTS (SELECT 1 FROM groups g JOIN memberships m ON m.group_id = g.id
        WHERE g.name = groupe AND m.athlete_id = athlete
          AND m.from_date <= day AND (m.until_date IS NULL OR m.until_date >= day))
    $$`)
  yield* sql.unsafe(`CREATE FUNCTION session_athletes_leave() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM session_replies r USING sessions s
        WHERE r.session_id = OLD.session_id AND r.athlete_id = OLD.athlete_id AND s.id = OLD.session_id
          AND NOT invited_by_membership(s.groupe, COALESCE(s.creneau::date, current_date), OLD.athlete_id);
      DELETE FROM attendance_marks m USING sessions s
        WHERE m.session_id = OLD.session_id AND m.athlete_id = OLD.athlete_id AND s.id = OLD.session_id
          AND NOT invited_by_membership(s.groupe, COALESCE(s.creneau::date, current_date), OLD.athlete_id);
      RETURN NULL;
    END $$`)
  yield* sql`CREATE TRIGGER session_athletes_leave AFTER DELETE ON session_athletes
    FOR EACH ROW EXECUTE FUNCTION session_athletes_leave()`
})
