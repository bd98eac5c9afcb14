import { isOutcomeUnknown } from "@club/core"
import { expect } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { autocommitWrite, timingRetries, transaction } from "../src/shared/transaction.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

const defectOf = <A, E>(exit: Exit.Exit<A, E>): unknown =>
  Exit.isFailure(exit) ? exit.cause.reasons.filter(Cause.isDieReason)[0]?.defect : undefined

onEachDatabase("A transaction's outcome", (it) => {
  it.effect("a failure at COMMIT is WriteOutcomeUnknown; a failure before it is the statement's own, and nothing is kept", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE outcome_probe (value text NOT NULL)`
      // Checked at COMMIT: the server refuses the commit, after every statement of the transaction succeeded.
      yield* sql`CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN IF NEW.value = 'refused at commit' THEN RAISE EXCEPTION 'refused at commit'; END IF; RETURN NEW; END $$`
      yield* sql`CREATE CONSTRAINT TRIGGER at_commit AFTER INSERT ON outcome_probe
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_at_commit()`

      const atCommit = yield* Effect.exit(transaction(sql)(sql`INSERT INTO outcome_probe VALUES ('refused at commit')`))
      expect(isOutcomeUnknown(defectOf(atCommit))).toBe(true)

      const before = yield* Effect.exit(
        transaction(sql)(Effect.andThen(
          sql`INSERT INTO outcome_probe VALUES ('before')`,
          sql`INSERT INTO outcome_probe VALUES (NULL)`
        ))
      )
      expect(Exit.isFailure(before)).toBe(true)
      expect(defectOf(before)).toBeUndefined()

      // Nested, a savepoint: only the outermost COMMIT tells.
      const nested = yield* Effect.exit(
        transaction(sql)(
          transaction(sql)(sql`INSERT INTO outcome_probe VALUES ('refused at commit')`)
        )
      )
      expect(isOutcomeUnknown(defectOf(nested))).toBe(true)

      expect(yield* sql`SELECT value FROM outcome_probe`).toEqual([])
      const kept = yield* transaction(sql)(sql`INSERT INTO outcome_probe VALUES ('kept') RETURNING value`)
      expect(kept).toEqual([{ value: "kept" }])
    }))
})

onEachDatabase("A write that commits by itself", (it) => {
  const lost = (operation: string) =>
    new SqlError.SqlError({
      reason: new SqlError.ConnectionError({ cause: new Error("ECONNRESET"), message: "lost", operation })
    })
  it.effect(
    "a connection lost once the statement was sent is WriteOutcomeUnknown; one never opened stays the outage",
    () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const sentAlone = autocommitWrite(sql)
        expect(isOutcomeUnknown(defectOf(yield* Effect.exit(sentAlone(Effect.fail(lost("query"))))))).toBe(true)
        const refused = yield* Effect.exit(sentAlone(Effect.fail(lost("connect"))))
        expect(defectOf(refused)).toBeUndefined()
        expect(Exit.isFailure(refused)).toBe(true)
      })
  )
})

onEachDatabase("Work PostgreSQL rolled back for its timing", (it) => {
  it.effect("is done again a few times, whole, in a transaction or alone; a refusal of its data is not", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Every row's insert counts itself on a sequence, which a rollback does not undo, and those
      // whose numbers `refused` lists are rolled back as PostgreSQL rolls back a deadlock's or a
      // serialization failure's transaction.
      yield* sql`CREATE TABLE timing_probe (value text NOT NULL)`
      yield* sql`CREATE TABLE timing_refusals (refused int[] NOT NULL, code text NOT NULL)`
      yield* sql`INSERT INTO timing_refusals VALUES ('{}', '40P01')`
      yield* sql`CREATE SEQUENCE timing_attempts`
      yield* sql`CREATE FUNCTION refuse_for_timing() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE refusal timing_refusals;
        BEGIN
          SELECT * INTO refusal FROM timing_refusals;
          IF nextval('timing_attempts') = ANY(refusal.refused) THEN
            RAISE EXCEPTION 'rolled back for its timing' USING ERRCODE = refusal.code;
          END IF;
          RETURN NEW;
        END $$`
      yield* sql`CREATE TRIGGER refuse_for_timing BEFORE INSERT ON timing_probe
        FOR EACH ROW EXECUTE FUNCTION refuse_for_timing()`
      const refusing = (refused: ReadonlyArray<number>, code = "40P01") =>
        Effect.andThen(
          sql`UPDATE timing_refusals SET refused = ${`{${refused.join(",")}}`}::int[], code = ${code}`,
          sql`ALTER SEQUENCE timing_attempts RESTART`
        )
      const attempts = Effect.map(
        sql<{ attempts: number }>`SELECT CASE WHEN is_called THEN last_value ELSE 0 END::int AS attempts
          FROM timing_attempts`,
        (rows) => rows[0]!.attempts
      )
      const kept = Effect.map(
        sql<{ value: string }>`SELECT value FROM timing_probe ORDER BY value`,
        (rows) => rows.map((row) => row.value)
      )
      const insert = (value: string | null) => sql`INSERT INTO timing_probe VALUES (${value})`

      yield* refusing([1])
      yield* transaction(sql)(Effect.andThen(insert("a transaction"), insert("a transaction, second row")))
      expect(yield* attempts).toBe(3)

      yield* refusing([1, 2], "40001")
      yield* autocommitWrite(sql)(insert("alone"))
      expect(yield* attempts).toBe(3)

      // In a caller's transaction, a statement alone is not sent again (it would meet a transaction
      // already rolled back): the caller's transaction, which PostgreSQL rolled back whole, is done again.
      yield* refusing([2])
      yield* transaction(sql)(Effect.andThen(insert("nested, first"), autocommitWrite(sql)(insert("nested, alone"))))
      expect(yield* attempts).toBe(4)

      const always = Array.from({ length: 100 }, (_, index) => index + 1)
      yield* refusing(always)
      const refusedEachTime = yield* Effect.exit(transaction(sql)(insert("never")))
      expect(Exit.isFailure(refusedEachTime)).toBe(true)
      expect(defectOf(refusedEachTime)).toBeUndefined()
      expect(yield* attempts).toBe(1 + timingRetries)
      yield* refusing(always)
      expect(Exit.isFailure(yield* Effect.exit(autocommitWrite(sql)(insert("never alone"))))).toBe(true)
      expect(yield* attempts).toBe(1 + timingRetries)

      yield* refusing([])
      expect(Exit.isFailure(yield* Effect.exit(transaction(sql)(insert(null))))).toBe(true)
      expect(yield* attempts).toBe(1)

      expect(yield* kept).toEqual([
        "a transaction",
        "a transaction, second row",
        "alone",
        "nested, alone",
        "nested, first"
      ])
    }))
})
