import { describe, expect, it } from "@effect/vitest"
import { SqlError } from "effect/sql"
import { isUnavailable } from "../src/index.ts"

const props = { cause: new Error("boom"), message: "PgConnection: Query failed", operation: "query" }
const withState = (code: string) => ({ ...props, cause: Object.assign(new Error("server said no"), { code }) })
const sqlError = (reason: SqlError.SqlErrorReason) => new SqlError.SqlError({ reason })

describe("isUnavailable", () => {
  it("recognises a connection the database refused, cut or timed out", () => {
    expect(isUnavailable(sqlError(new SqlError.ConnectionError(props)))).toBe(true)
  })

  it("recognises a server that is shutting down, starting or out of connections", () => {
    for (const code of ["57P01", "57P02", "57P03", "53300"]) {
      expect(isUnavailable(sqlError(new SqlError.UnknownError(withState(code)))), code).toBe(true)
    }
  })

  it("leaves every other failure a defect: bugs, constraint violations, and what is not a SQL error", () => {
    expect(isUnavailable(sqlError(new SqlError.SqlSyntaxError(withState("42601"))))).toBe(false)
    expect(
      isUnavailable(sqlError(new SqlError.UniqueViolation({ ...withState("23505"), constraint: "users_name_key" })))
    ).toBe(false)
    expect(isUnavailable(sqlError(new SqlError.UnknownError(withState("XX000"))))).toBe(false)
    expect(isUnavailable(sqlError(new SqlError.UnknownError(props)))).toBe(false)
    expect(isUnavailable(new Error("ECONNREFUSED"))).toBe(false)
    expect(isUnavailable(undefined)).toBe(false)
  })
})
