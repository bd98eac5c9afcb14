import { isUnavailable, StoreUnavailable } from "@club/core"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Option, Schema } from "effect"
import { SqlError } from "effect/sql"
import { dieOnInfrastructureError } from "../src/shared/dieOnInfrastructureError.ts"
import { isOutage, toDefect } from "../src/shared/outage.ts"

const props = { cause: new Error("boom"), message: "PgConnection: Query failed", operation: "query" }
const withState = (code: string) => ({ ...props, cause: Object.assign(new Error("server said no"), { code }) })
const sqlError = (reason: SqlError.SqlErrorReason) => new SqlError.SqlError({ reason })

const defectOf = <A, E>(exit: Exit.Exit<A, E>): unknown =>
  Exit.isFailure(exit) ? exit.cause.reasons.filter(Cause.isDieReason)[0]?.defect : undefined

describe("isOutage: which SQL errors mean the database cannot be reached now", () => {
  it("recognises a connection the database refused, cut or timed out", () => {
    expect(isOutage(sqlError(new SqlError.ConnectionError(props)))).toBe(true)
  })

  it("recognises a server that is shutting down, starting or out of connections", () => {
    for (const code of ["57P01", "57P02", "57P03", "53300"]) {
      expect(isOutage(sqlError(new SqlError.UnknownError(withState(code)))), code).toBe(true)
    }
  })

  it("leaves every other failure a defect: bugs, constraint violations, and what is not a SQL error", () => {
    expect(isOutage(sqlError(new SqlError.SqlSyntaxError(withState("42601"))))).toBe(false)
    expect(isOutage(sqlError(new SqlError.UniqueViolation({ ...withState("23505"), constraint: "users_name_key" }))))
      .toBe(false)
    expect(isOutage(sqlError(new SqlError.UnknownError(withState("XX000"))))).toBe(false)
    expect(isOutage(sqlError(new SqlError.UnknownError(props)))).toBe(false)
    expect(isOutage(new Error("ECONNREFUSED"))).toBe(false)
    expect(isOutage(undefined)).toBe(false)
  })
})

describe("the defect a port dies with", () => {
  it("is core's StoreUnavailable for an outage, carrying the driver's error", () => {
    const refused = sqlError(new SqlError.ConnectionError(props))
    const defect = toDefect(refused)
    expect(defect).toBeInstanceOf(StoreUnavailable)
    expect(isUnavailable(defect)).toBe(true)
    expect((defect as StoreUnavailable).cause).toBe(refused)
  })

  it("is the error itself otherwise", () => {
    const bug = sqlError(new SqlError.SqlSyntaxError(withState("42601")))
    expect(toDefect(bug)).toBe(bug)
    expect(isUnavailable(toDefect(bug))).toBe(false)
  })

  it("dieOnInfrastructureError: an outage dies as StoreUnavailable, another SQL or schema error as itself, a domain error stays typed", () => {
    const shuttingDown = sqlError(new SqlError.UnknownError(withState("57P01")))
    expect(isUnavailable(defectOf(Effect.runSyncExit(dieOnInfrastructureError(Effect.fail(shuttingDown)))))).toBe(true)

    const bug = sqlError(new SqlError.UnknownError(withState("XX000")))
    expect(defectOf(Effect.runSyncExit(dieOnInfrastructureError(Effect.fail(bug))))).toBe(bug)

    const undecodable = Effect.runSyncExit(dieOnInfrastructureError(Schema.decodeUnknownEffect(Schema.Number)("x")))
    expect(Schema.isSchemaError(defectOf(undecodable))).toBe(true)

    const refused = Effect.runSyncExit(dieOnInfrastructureError(Effect.fail("refused" as const)))
    expect(Exit.isFailure(refused) ? Option.getOrUndefined(Cause.findErrorOption(refused.cause)) : undefined).toBe(
      "refused"
    )
  })

  it("dieOnInfrastructureError: a SQL error the SQL client died with (a rollback on a connection gone) is classified too", () => {
    const rollbackCut = sqlError(new SqlError.ConnectionError(props))
    expect(isUnavailable(defectOf(Effect.runSyncExit(dieOnInfrastructureError(Effect.die(rollbackCut)))))).toBe(true)

    const bug = new Error("a bug")
    expect(defectOf(Effect.runSyncExit(dieOnInfrastructureError(Effect.die(bug))))).toBe(bug)
    const syntax = sqlError(new SqlError.SqlSyntaxError(withState("42601")))
    expect(defectOf(Effect.runSyncExit(dieOnInfrastructureError(Effect.die(syntax))))).toBe(syntax)

    const interrupted = Effect.runSyncExit(dieOnInfrastructureError(Effect.interrupt))
    expect(Exit.isFailure(interrupted) && Cause.hasInterruptsOnly(interrupted.cause)).toBe(true)
  })
})
