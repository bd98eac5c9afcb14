import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { type Answer, answer } from "./Answer.ts"
import { signToken, verifyPassword } from "./credentials.ts"
import { athleteDto, sessionDto, summary, taskResponse, userDto } from "./rows.ts"
import * as Q from "./statements.ts"

type Row = Record<string, unknown>
// oxlint-disable-next-line no-explicit-any -- a parsed JSON body, read as the bare baseline reads it: without a schema
type Body = Record<string, any>

export interface Route {
  readonly method: string
  readonly pattern: RegExp
  readonly handle: (sql: SqlClient.SqlClient, params: Array<string>, body: Body) => Effect.Effect<Answer, unknown>
}

const int8 = (ids: ReadonlyArray<number>) => Array.from(new Set(ids), (id) => BigInt(id))

const unknownAmong = (sql: SqlClient.SqlClient, table: Parameters<typeof Q.knownIds>[0], ids: ReadonlyArray<number>) =>
  ids.length === 0
    ? Effect.succeed([])
    : Effect.map(sql.unsafe<Row>(Q.knownIds(table), [int8(ids)]), (rows) => {
      const found = new Set(rows.map((row) => Number(row["id"])))
      return ids.filter((id) => !found.has(id))
    })

const readSession = (sql: SqlClient.SqlClient, id: number) =>
  Effect.map(sql.unsafe<Row>(Q.sessionsById, [[BigInt(id)]]), (rows) => sessionDto(rows[0]!))

const replaceAthletes = (sql: SqlClient.SqlClient, id: number, athleteIds: ReadonlyArray<number>) =>
  Effect.andThen(
    sql.unsafe(Q.removeOtherAthletes, [id, int8(athleteIds)]),
    athleteIds.length === 0 ? Effect.void : Effect.asVoid(sql.unsafe(Q.addAthletes, [id, int8(athleteIds)]))
  )

const loginTtlSeconds = 3600
/** Core's default delays after the free failures: 1 s doubling up to 300 s. */
const loginDelaysMs = [1, 2, 4, 8, 16, 32, 64, 128, 256, 300].map((seconds) => BigInt(seconds * 1_000))
const jwtSecret = process.env["JWT_SECRET"] ?? "baseline"

export const routes: ReadonlyArray<Route> = [
  {
    method: "GET",
    pattern: /^\/session\/all$/,
    handle: (sql) => Effect.map(sql.unsafe<Row>(Q.allSessions), (rows) => answer(200, rows.map(sessionDto)))
  },
  {
    method: "GET",
    pattern: /^\/session\/(\d+)$/,
    handle: (sql, [id]) =>
      Effect.map(
        sql.unsafe<Row>(Q.sessionsById, [[BigInt(id!)]]),
        (rows) => rows.length === 0 ? answer(404, `Session not found with id ${id}`) : answer(200, sessionDto(rows[0]!))
      )
  },
  {
    method: "GET",
    pattern: /^\/athletes\/athletes\/(\d+)\/session\/between\/(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/,
    handle: (sql, [id, start, end]) =>
      Effect.map(
        sql.unsafe<Row>(Q.sessionsOfAthleteBetween, [[BigInt(id!)], `${start}T00:00:00`, `${end}T00:00:00`]).unprepared,
        (rows) => answer(200, rows.map(summary))
      )
  },
  {
    method: "GET",
    pattern: /^\/athletes\/athletes\/(\d+)\/session\/after\/(\d{4}-\d{2}-\d{2})$/,
    handle: (sql, [id, start]) =>
      Effect.map(
        sql.unsafe<Row>(Q.sessionsOfAthleteAfter, [[BigInt(id!)], `${start}T00:00:00`]).unprepared,
        (rows) => answer(200, rows.map(summary))
      )
  },
  {
    method: "GET",
    pattern: /^\/athletes\/athlete\/(\d+)\/session$/,
    handle: (sql, [id]) =>
      Effect.map(
        sql.unsafe<Row>(Q.sessionsOfAthlete, [[BigInt(id!)]]).unprepared,
        (rows) => answer(200, rows.map(summary))
      )
  },
  {
    method: "GET",
    pattern: /^\/athletes\/athletes\/session\/(\d+)\/activities$/,
    handle: (sql, [id]) =>
      Effect.map(sql.unsafe<Row>(Q.activitiesOfSession, [[BigInt(id!)]]), (rows) => answer(200, rows.map(summary)))
  },
  {
    method: "POST",
    pattern: /^\/athletes\/all$/,
    handle: (sql) => Effect.map(sql.unsafe<Row>(Q.allAthletes), (rows) => answer(200, rows.map(athleteDto)))
  },
  {
    method: "GET",
    pattern: /^\/all$/,
    handle: (sql) => Effect.map(sql.unsafe<Row>(Q.allCoaches), (rows) => answer(200, rows.map(summary)))
  },
  {
    method: "GET",
    pattern: /^\/users\/all$/,
    handle: (sql) => Effect.map(sql.unsafe<Row>(Q.allUsers), (rows) => answer(200, rows.map(userDto)))
  },
  {
    method: "POST",
    pattern: /^\/session\/create$/,
    handle: (sql, _, body) =>
      sql.withTransaction(Effect.gen(function*() {
        const athleteIds: Array<number> = body["athleteIds"] ?? []
        const unknownAthletes = yield* unknownAmong(sql, "athletes", athleteIds)
        const unknownCoach = body["coachId"] == null ? [] : yield* unknownAmong(sql, "coaches", [body["coachId"]])
        if (unknownAthletes.length + unknownCoach.length > 0) return answer(400, "Unknown athletes or coach")
        const [inserted] = yield* sql.unsafe<Row>(Q.insertSession, [
          body["name"] ?? null,
          body["isRecurrent"] ?? null,
          body["creneau"] ?? null,
          body["duree"] ?? null,
          body["groupe"] ?? null,
          body["coachId"] ?? null
        ])
        const id = Number(inserted!["id"])
        if (athleteIds.length > 0) yield* sql.unsafe(Q.addAthletes, [id, int8(athleteIds)])
        return answer(201, yield* readSession(sql, id))
      }))
  },
  {
    method: "PUT",
    pattern: /^\/session\/update\/(\d+)$/,
    handle: (sql, [idText], body) =>
      sql.withTransaction(Effect.gen(function*() {
        const id = Number(idText)
        const locked = yield* sql.unsafe(Q.lockSession, [id])
        if (locked.length === 0) return answer(404, { detail: `Session not found with id ${id}` })
        const athleteIds: Array<number> | undefined = body["athleteIds"] ?? undefined
        if (athleteIds !== undefined && (yield* unknownAmong(sql, "athletes", athleteIds)).length > 0) {
          return answer(400, { detail: "Unknown athletes" })
        }
        if (body["duree"] !== undefined) yield* sql.unsafe(Q.updateDuree, [body["duree"], id])
        if (athleteIds !== undefined) yield* replaceAthletes(sql, id, athleteIds)
        yield* readSession(sql, id)
        return answer(204)
      }))
  },
  {
    method: "POST",
    pattern: /^\/activite\/create$/,
    handle: (sql, _, body) =>
      sql.withTransaction(Effect.gen(function*() {
        if ((yield* unknownAmong(sql, "sessions", [body["sessionId"]])).length > 0) {
          return answer(500, "Error: Unknown session")
        }
        yield* sql.unsafe(Q.insertActivity, [
          body["name"] ?? null,
          body["theme"] ?? null,
          body["duree"] ?? null,
          body["dataActivite"] ?? [],
          body["sessionId"]
        ])
        return answer(201, "Activity created")
      }))
  },
  {
    method: "POST",
    pattern: /^\/auth\/login$/,
    handle: (sql, _, body) =>
      Effect.gen(function*() {
        const now = Date.now()
        const address = "address:127.0.0.1"
        const nameAtAddress = `name-at-address:${JSON.stringify([String(body["name"]).toLowerCase(), "127.0.0.1"])}`
        const [admission] = yield* sql.unsafe<Row>(Q.admitLogin, [
          loginDelaysMs,
          [address, nameAtAddress],
          [20, 5],
          BigInt(now),
          BigInt(now - 15 * 60_000)
        ])
        if (admission!["admitted"] !== 2) return answer(429, { detail: "Too many failed attempts" })
        const [user] = yield* sql.unsafe<Row>(Q.credentialsByName, [body["name"]])
        const valid = user !== undefined &&
          (yield* Effect.promise(() => verifyPassword(body["password"], user["passwordHash"] as string)))
        if (!valid) return answer(401, { detail: "Invalid name or password" })
        yield* sql.unsafe(Q.loginSucceeded, [[address, nameAtAddress], [nameAtAddress], [address]])
        const iat = Math.floor(now / 1000)
        const token = signToken(jwtSecret, {
          sub: String(user["id"]),
          role: user["role"],
          iat,
          exp: iat + loginTtlSeconds
        })
        return answer(200, { token, tokenType: "Bearer", expiresIn: loginTtlSeconds, user: userDto(user) })
      })
  },
  {
    method: "POST",
    pattern: /^\/todo\.TodoService\/ListTasks$/,
    handle: (sql) => Effect.map(sql.unsafe<Row>(Q.listTasks), (rows) => answer(200, { tasks: rows.map(taskResponse) }))
  },
  {
    method: "POST",
    pattern: /^\/todo\.TodoService\/CreateTask$/,
    handle: (sql, _, body) =>
      Effect.map(
        sql.unsafe<Row>(Q.createTask, [[body["title"] ?? ""], [body["description"] ?? ""]]),
        ([row]) => answer(200, taskResponse(row!))
      )
  }
]
