import { isOutcomeUnknown } from "@club/core"
import { describe, expect, it as plain } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { autocommitWrite, transaction } from "../src/shared/transaction.ts"
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

describe("A write that commits by itself", () => {
  const lost = (operation: string) =>
    new SqlError.SqlError({
      reason: new SqlError.ConnectionError({ cause: new Error("ECONNRESET"), message: "lost", operation })
    })
  plain.effect(
    "a connection lost once the statement was sent is WriteOutcomeUnknown; one never opened stays the outage",
    () =>
      Effect.gen(function*() {
        expect(isOutcomeUnknown(defectOf(yield* Effect.exit(autocommitWrite(Effect.fail(lost("query"))))))).toBe(true)
        const refused = yield* Effect.exit(autocommitWrite(Effect.fail(lost("connect"))))
        expect(defectOf(refused)).toBeUndefined()
        expect(Exit.isFailure(refused)).toBe(true)
      })
  )
})
