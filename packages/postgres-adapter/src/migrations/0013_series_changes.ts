import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Changing series and occurrences (issue 17, docs/schedule/series.md "Changes").
 *
 * - `sessions.overridden`: the occurrence was changed by itself (`scope=one`); a later change of
 *   its series leaves its values alone, so it stays an exception.
 * - `series.continued_by`: a change "from this occurrence on" of a series that has occurrences
 *   before it ends the series there and continues it as a new series; this names the new one.
 * - `series.revision` and `series.change`, as the sessions' (0012): the series' SEQUENCE in a
 *   calendar feed, and a marker that moves a feed's ETag when the series' own values change. The
 *   horizon (`expanded_until`) is not a value: extending creates sessions, which move the marker.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE sessions ADD COLUMN overridden boolean NOT NULL DEFAULT false`
  yield* sql`ALTER TABLE series
    ADD COLUMN continued_by bigint REFERENCES series (id) ON DELETE SET NULL,
    ADD COLUMN revision integer NOT NULL DEFAULT 0,
    ADD COLUMN change bigint NOT NULL DEFAULT nextval('session_changes')`
  yield* sql.unsafe(`CREATE FUNCTION series_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (NEW.name, NEW.groupe, NEW.coach_id, NEW.duree, NEW.start, NEW.rrule, NEW.athlete_ids, NEW.ends_before)
        IS DISTINCT FROM (OLD.name, OLD.groupe, OLD.coach_id, OLD.duree, OLD.start, OLD.rrule, OLD.athlete_ids,
          OLD.ends_before) THEN
        NEW.revision := OLD.revision + 1;
        NEW.change := nextval('session_changes');
      END IF;
      RETURN NEW;
    END $$`)
  yield* sql`CREATE TRIGGER series_count_change BEFORE UPDATE ON series
    FOR EACH ROW EXECUTE FUNCTION series_count_change()`
})
