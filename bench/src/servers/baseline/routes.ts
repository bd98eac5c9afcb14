import { Effect } from "effect"
import { type SqlClient, SqlError } from "effect/sql"
import { type Answer, answer } from "./Answer.ts"
import { cursorSeal, signToken, verifyPassword } from "./credentials.ts"
import { athleteDto, invitedSession, sessionDto, summary, taskResponse, userDto } from "./rows.ts"
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

/** PostgreSQL's foreign key violation: the write named a row that does not exist, and kept nothing. */
const isForeignKeyViolation = (error: unknown) =>
  SqlError.isSqlError(error) && (error.reason.cause as { readonly code?: unknown } | undefined)?.code === "23503"

/** The endpoint's refusal when the write named an unknown row. */
const refusedWhenUnknown = (refusal: Answer) => <E, R>(write: Effect.Effect<Answer, E, R>) =>
  Effect.catchIf(write, isForeignKeyViolation, () => Effect.succeed(refusal))

const loginTtlSeconds = 3600
/** Core's default delays after the free failures: 1 s doubling up to 300 s. */
const loginDelaysMs = [1, 2, 4, 8, 16, 32, 64, 128, 256, 300].map((seconds) => BigInt(seconds * 1_000))
const jwtSecret = process.env["JWT_SECRET"] ?? "baseline"
const seal = cursorSeal(jwtSecret)

/** The club's calendar day now, in its zone (the project's CLUB_TIMEZONE, UTC by default). */
const clubDay = new Intl.DateTimeFormat("en-CA", {
  timeZone: process.env["CLUB_TIMEZONE"] ?? "UTC",
  year: "numeric",
  month: "2-digit",
  day: "2-digit"
})
const today = () => clubDay.format(new Date())

/** The day after `day` (YYYY-MM-DD). */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

/** A page's length: `limit`, else the project's default (50). The first page only: no cursor is read. */
const pageLimit = (query: URLSearchParams) => Number(query.get("limit") ?? 50)

/**
 * A page as the project answers one: it read a row more than the page, which says that another
 * follows; `nextCursor` is then the last item's position, sealed as the project seals it.
 */
const page = <A>(read: ReadonlyArray<A>, limit: number, position: (last: A) => string) => {
  const items = read.slice(0, limit)
  return {
    items,
    nextCursor: read.length > limit && items.length > 0 ? seal(position(items[items.length - 1]!)) : null
  }
}

const query = (text: string | undefined) => new URLSearchParams(text ?? "")

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
    method: "GET",
    pattern: /^\/attendance\/sessions\/(\d+)\/invited(?:\?(.*))?$/,
    handle: (sql, [idText, queryText]) => {
      const id = Number(idText)
      const limit = pageLimit(query(queryText))
      return Effect.map(
        sql.unsafe<Row>(Q.invitedToSession, [today(), id, id, 0, limit + 1, 0, limit + 1, limit + 1]),
        ([row]) =>
          row?.["found"] !== true
            ? answer(404, { detail: `Session not found with id ${id}` })
            : answer(
              200,
              page(row["items"] as ReadonlyArray<Row>, limit, (last) => JSON.stringify(last["athleteId"]))
            )
      )
    }
  },
  {
    method: "GET",
    pattern: /^\/attendance\/athletes\/(\d+)\/sessions\?(.*)$/,
    handle: (sql, [idText, queryText]) => {
      const id = Number(idText)
      const params = query(queryText)
      const limit = pageLimit(params)
      const from = `${params.get("from")}T00:00:00`
      const until = `${dayAfter(params.get("to")!)}T00:00:00`
      return Effect.map(
        sql.unsafe<Row>(Q.sessionsOfInvitedAthlete, [id, from, until, from, 0, from, until, id, from, 0, limit + 1])
          .unprepared,
        (rows) =>
          answer(
            200,
            page(rows.map(invitedSession), limit, (last) => JSON.stringify([last.creneau, last.sessionId]))
          )
      )
    }
  },
  {
    method: "GET",
    pattern: /^\/groups\/(\d+)\/members(?:\?(.*))?$/,
    handle: (sql, [idText, queryText]) => {
      const id = Number(idText)
      const params = query(queryText)
      const limit = pageLimit(params)
      return Effect.map(
        sql.unsafe<Row>(Q.rosterOnDay, [id, id, id, params.get("on") ?? today(), 0, limit + 1]),
        ([row]) =>
          row?.["known"] !== true
            ? answer(404, { detail: `Group not found with id ${id}` })
            : answer(200, page(row["items"] as ReadonlyArray<Row>, limit, (last) => String(last["id"])))
      )
    }
  },
  {
    method: "POST",
    pattern: /^\/session\/create$/,
    handle: (sql, _, body) => {
      const values = {
        name: body["name"] ?? null,
        isRecurrent: body["isRecurrent"] ?? null,
        creneau: body["creneau"] ?? null,
        duree: body["duree"] ?? null
      }
      // The project's `sessionCreated` payload (core's domainEvents.ts): the session as created.
      const event = { name: values.name, creneau: values.creneau, duree: values.duree, seriesId: null }
      return sql.unsafe<Row>(Q.createSession, [
        values.name,
        values.isRecurrent,
        values.creneau,
        values.duree,
        body["groupe"] ?? null,
        body["coachId"] ?? null,
        int8(body["athleteIds"] ?? []),
        JSON.stringify(event)
      ]).pipe(
        Effect.map(([row]) => answer(201, sessionDto(row!))),
        refusedWhenUnknown(answer(400, "Unknown athletes or coach"))
      )
    }
  },
  {
    method: "PUT",
    pattern: /^\/session\/update\/(\d+)$/,
    handle: (sql, [idText], body) => {
      const id = Number(idText)
      const athleteIds: Array<number> | undefined = body["athleteIds"] ?? undefined
      const notFound = answer(404, { detail: `Session not found with id ${id}` })
      // A transaction of two: the session locked and updated, then its athletes and its event.
      return sql.withTransaction(Effect.gen(function*() {
        const [session] = yield* sql.unsafe<Row>(Q.updateSession, [body["duree"] ?? null, id])
        if (session === undefined) return notFound
        // The project's `sessionChanged` payload: the session as updated, its start and length before.
        const event = JSON.stringify({
          name: session["name"],
          creneau: session["creneau"],
          duree: session["duree"],
          seriesId: session["seriesId"],
          previousCreneau: session["creneau"],
          previousDuree: session["previousDuree"]
        })
        yield* athleteIds === undefined
          ? sql.unsafe(Q.sessionChangedEvent, [id, event])
          : sql.unsafe(Q.replaceAthletes, [id, int8(athleteIds), event])
        return answer(204)
      })).pipe(refusedWhenUnknown(answer(400, { detail: "Unknown athletes" })))
    }
  },
  {
    method: "POST",
    pattern: /^\/activite\/create$/,
    handle: (sql, _, body) =>
      sql.unsafe(Q.insertActivity, [
        body["name"] ?? null,
        body["theme"] ?? null,
        body["duree"] ?? null,
        body["dataActivite"] ?? [],
        body["sessionId"]
      ]).pipe(
        Effect.as(answer(201, "Activity created")),
        refusedWhenUnknown(answer(500, "Error: Unknown session"))
      )
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
