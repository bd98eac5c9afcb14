import { afterAll, beforeAll, expect, it } from "vitest"
import { onEveryDatabase, unique } from "../rest/support/club.ts"
import { type Reply, type RequestOptions, send } from "../rest/support/http.ts"
import { type Prism, startPrism, type Violation, violationsOf } from "./support/prism.ts"

/**
 * The seed's flows, and those of the planning, attendance, webhook and calendar feed endpoints
 * (issues 17 and 18), positive and negative, sent through Stoplight Prism as a validating proxy in
 * front of the server: Prism checks each request and each answer (status, content type, headers,
 * body) against the served /openapi.json. No answer may be one the document does not declare. A
 * request the server accepts must be one the document allows; a request refused as bad input must
 * be one the document refuses too (so that the document tells clients what the server takes).
 *
 * Not sent through the proxy: a body that is not JSON at all. Prism 5.16 never answers such a
 * request (its body parser waits forever); the 400 for a body of the wrong types is checked.
 */
type Who = "none" | "ADMIN" | "COACH" | "ATHLETE" | "forged" | "owner"

/**
 * `valid`: the document allows the request (the server may still refuse it for what no schema
 * says: an unknown id, an RRULE outside the subset, a period that ends before it starts).
 * `invalid`: the document does not allow it, nor does the server.
 */
type Input = "valid" | "invalid"

interface Exchange {
  readonly step: string
  readonly reply: Reply
  readonly input: Input
  readonly expectedStatus: number
  readonly violations: ReadonlyArray<Violation>
}

await onEveryDatabase(
  "Every answer of the API's flows is one /openapi.json declares (Prism validating proxy)",
  (club) => {
    let prism: Prism
    const exchanges: Array<Exchange> = []
    let ownerToken = ""

    beforeAll(async () => {
      prism = await startPrism(`${club().url}/openapi.json`, club().url)
    }, 120_000)
    afterAll(async () => {
      await prism?.stop()
    })

    const tokenOf = (who: Who): string | null =>
      who === "none" ? null : who === "forged" ? "forged.token.value" : who === "owner" ? ownerToken : club().token[who]

    /** Sends one request through the proxy and keeps the exchange for the checks at the end. */
    const call = async (
      step: string,
      who: Who,
      method: string,
      path: string,
      expectedStatus: number,
      options: Partial<RequestOptions> & { readonly input?: Input } = {}
    ): Promise<Reply> => {
      const { input = "valid", ...request } = options
      const reply = await send(prism.url, method, path, { token: tokenOf(who), ...request })
      exchanges.push({ step, reply, input, expectedStatus, violations: violationsOf(reply.headers) })
      return reply
    }
    const idOf = (reply: Reply) => (reply.body as { id: number }).id

    it("health and authentication", async () => {
      await call("liveness", "none", "GET", "/health/live", 200)
      await call("readiness", "none", "GET", "/health/ready", 200)
      await call("login", "none", "POST", "/auth/login", 200, {
        json: { name: "head-admin", password: "admin-password-0" }
      })
      await call("login, wrong password", "none", "POST", "/auth/login", 401, {
        json: { name: "head-admin", password: "wrong-password" }
      })
      await call("login, no password", "none", "POST", "/auth/login", 400, {
        json: { name: "head-admin" },
        input: "invalid"
      })
      await call("me", "COACH", "GET", "/auth/me", 200)
      await call("me without a token", "none", "GET", "/auth/me", 401, { input: "invalid" })
      await call("me with a forged token", "forged", "GET", "/auth/me", 401)
      const name = unique("throttled")
      for (let attempt = 1; attempt <= 5; attempt++) {
        await call(`failed login ${attempt}`, "none", "POST", "/auth/login", 401, {
          json: { name, password: "not-the-password" }
        })
      }
      await call("login after five failures", "none", "POST", "/auth/login", 429, {
        json: { name, password: "not-the-password" }
      })
    })

    it("coaches, at the seed's paths and under /coaches", async () => {
      const coach = idOf(
        await call("create a coach", "ADMIN", "POST", "/create", 201, { json: { name: "Seed-path coach" } })
      )
      const other = idOf(
        await call("create a coach under /coaches", "ADMIN", "POST", "/coaches/create", 201, {
          json: { name: "Prefixed coach", id: null }
        })
      )
      await call("create a coach with a taken id", "ADMIN", "POST", "/coaches/create", 409, {
        json: { id: coach, name: "Twin" }
      })
      await call("create a coach with an id over the bound", "ADMIN", "POST", "/coaches/create", 400, {
        json: { id: 2_147_483_648 },
        input: "invalid"
      })
      await call("create a coach, as a coach", "COACH", "POST", "/create", 403, { json: { name: "Not allowed" } })
      await call("list coaches", "ADMIN", "GET", "/all", 200)
      await call("list coaches under /coaches", "COACH", "GET", "/coaches/all", 200)
      await call("read a coach", "ADMIN", "GET", `/${coach}`, 200)
      await call("read a coach, unknown", "ADMIN", "GET", "/coaches/2147480001", 404)
      await call("read a coach, as an athlete", "ATHLETE", "GET", `/coaches/${coach}`, 403)
      await call("read a coach, id not a positive integer", "ADMIN", "GET", "/coaches/0", 400, { input: "invalid" })
      await call("update a coach", "ADMIN", "PUT", `/update/${other}`, 200, {
        json: { name: "Renamed", unknownMember: true }
      })
      await call("update a coach, unknown", "ADMIN", "PUT", "/coaches/update/2147480001", 404, {
        json: { name: "Nobody" }
      })
      await call("update a coach, name of the wrong type", "ADMIN", "PUT", `/coaches/update/${other}`, 400, {
        json: { name: 5 },
        input: "invalid"
      })
      await call("delete a coach", "ADMIN", "DELETE", `/delete/${other}`, 204)
      await call("delete a coach, unknown", "ADMIN", "DELETE", `/coaches/delete/${other}`, 404)
      const owner = idOf(
        await call("create a coach who will own a session", "ADMIN", "POST", "/coaches/create", 201, {
          json: { name: "Owner" }
        })
      )
      await call("create the owned session", "COACH", "POST", "/session/create", 201, {
        json: { name: "Owned", coachId: owner }
      })
      await call("delete a coach who owns a session", "ADMIN", "DELETE", `/coaches/delete/${owner}`, 409)
    })

    it("athletes", async () => {
      const athlete = await call("create an athlete", "ADMIN", "POST", "/athletes/create", 201, {
        json: { name: "Nadia", categorie: "Senior", niveau: "A", groupes: ["ignored"], sessionIds: [], userId: null }
      })
      const id = idOf(athlete)
      await call("create an athlete with a supplied id", "ADMIN", "POST", "/athletes/create", 201, {
        json: { id: 1_900_000_000 + (id % 1000), name: "Supplied" }
      })
      await call("create an athlete with a taken id", "ADMIN", "POST", "/athletes/create", 409, {
        json: { id, name: "Twin" }
      })
      await call("create an athlete, name of the wrong type", "ADMIN", "POST", "/athletes/create", 400, {
        json: { name: ["Nadia"] },
        input: "invalid"
      })
      await call("create an athlete, as a coach", "COACH", "POST", "/athletes/create", 403, {
        json: { name: "Not allowed" }
      })
      await call("create an athlete without a token", "none", "POST", "/athletes/create", 401, {
        json: { name: "Nobody" },
        input: "invalid"
      })
      await call("list athletes (a POST)", "ATHLETE", "POST", "/athletes/all", 200)
      await call("read an athlete", "COACH", "GET", `/athletes/${id}`, 200)
      await call("read an athlete, unknown (empty 404)", "COACH", "GET", "/athletes/2147480001", 404)
      await call("read an athlete, id 0", "COACH", "GET", "/athletes/0", 400, { input: "invalid" })
      const session = idOf(
        await call("create a session for the athlete", "COACH", "POST", "/session/create", 201, {
          json: { name: "For Nadia" }
        })
      )
      await call("update an athlete", "ADMIN", "PUT", `/athletes/${id}`, 200, {
        json: { name: "Nadia B.", sessionIds: [session] }
      })
      await call("update an athlete, unknown session (the seed's 204)", "ADMIN", "PUT", `/athletes/${id}`, 204, {
        json: { sessionIds: [2_147_480_001] }
      })
      await call("update an athlete, unknown athlete (the seed's 204)", "ADMIN", "PUT", "/athletes/2147480001", 204, {
        json: { name: "Nobody" }
      })
      await call("update an athlete, as its own ATHLETE user", "ATHLETE", "PUT", `/athletes/${club().athleteId}`, 200, {
        json: { niveau: "B" }
      })
      await call("update another athlete, as an ATHLETE user", "ATHLETE", "PUT", `/athletes/${id}`, 403, {
        json: { niveau: "B" }
      })
      await call("delete an athlete", "ADMIN", "DELETE", `/athletes/${id}`, 204)
      await call("delete an athlete, unknown (empty 404)", "ADMIN", "DELETE", `/athletes/${id}`, 404)
    })

    it("sessions", async () => {
      const athlete = idOf(
        await call("create an athlete for sessions", "ADMIN", "POST", "/athletes/create", 201, {
          json: { name: "Sam" }
        })
      )
      const created = await call("create a session", "COACH", "POST", "/session/create", 201, {
        json: {
          name: "Track",
          isRecurrent: true,
          creneau: "2026-11-24T18:30:00",
          duree: 90,
          groupe: "Seniors",
          coachId: club().coachId,
          athleteIds: [athlete],
          activiteIds: []
        }
      })
      const id = idOf(created)
      await call("create a session, unknown athlete (the seed's 400 text)", "COACH", "POST", "/session/create", 400, {
        json: { athleteIds: [2_147_480_001] }
      })
      await call("create a session, taken id (400 text)", "COACH", "POST", "/session/create", 400, { json: { id } })
      await call("create a session, creneau with an offset", "COACH", "POST", "/session/create", 400, {
        json: { creneau: "2026-11-24T18:30:00Z" },
        input: "invalid"
      })
      await call("create a session, negative duree", "COACH", "POST", "/session/create", 400, {
        json: { duree: -1 },
        input: "invalid"
      })
      await call("create a session, as an admin", "ADMIN", "POST", "/session/create", 403, {
        json: { name: "Not allowed" }
      })
      await call("list sessions", "ATHLETE", "GET", "/session/all", 200)
      await call("read a session", "ATHLETE", "GET", `/session/${id}`, 200)
      await call("read a session, unknown (404 text)", "COACH", "GET", "/session/2147480001", 404)
      await call("update a session", "COACH", "PUT", `/session/update/${id}`, 204, {
        json: { duree: 60, athleteIds: [], name: "ignored" }
      })
      await call("update a session, unknown", "COACH", "PUT", "/session/update/2147480001", 404, {
        json: { duree: 60 }
      })
      await call("update a session, unknown athlete", "COACH", "PUT", `/session/update/${id}`, 400, {
        json: { athleteIds: [2_147_480_001] }
      })
      await call("update a session, ids of the wrong type", "COACH", "PUT", `/session/update/${id}`, 400, {
        json: { athleteIds: "1,2" },
        input: "invalid"
      })
      await call("delete a session", "COACH", "DELETE", `/session/delete/${id}`, 200)
      await call("delete a session, unknown (404 text)", "COACH", "DELETE", `/session/delete/${id}`, 404)
    })

    it("activities", async () => {
      const session = idOf(
        await call("create a session for activities", "COACH", "POST", "/session/create", 201, {
          json: { name: "With activities" }
        })
      )
      const created = await call("create an activity", "COACH", "POST", "/activite/create", 201, {
        json: {
          id: 99,
          name: "Sprints",
          theme: "cardio-prism",
          duree: null,
          dataActivite: ["6 x 200 m"],
          sessionId: session
        }
      })
      const activity = Number(created.headers.get("location")?.split("/").at(-1))
      await call(
        "create an activity, unknown session (the seed's 500 text)",
        "COACH",
        "POST",
        "/activite/create",
        500,
        { json: { sessionId: 2_147_480_001 } }
      )
      await call("create an activity, no sessionId (500 text)", "COACH", "POST", "/activite/create", 500, {
        json: { name: "Orphan" },
        input: "invalid"
      })
      await call("create an activity, as an athlete", "ATHLETE", "POST", "/activite/create", 403, {
        json: { sessionId: session }
      })
      await call("read an activity", "ATHLETE", "GET", `/activite/${activity}`, 200)
      await call("read an activity, unknown (empty 404)", "COACH", "GET", "/activite/2147480001", 404)
      await call("list activities", "COACH", "GET", "/activite/all", 200)
      await call("list activities by theme", "COACH", "GET", "/activite/theme/cardio-prism", 200)
      await call("list activities, as an admin", "ADMIN", "GET", "/activite/all", 403)
      await call("update an activity", "COACH", "POST", `/activite/update/${activity}`, 200, {
        json: { name: "Long sprints", sessionId: session }
      })
      await call("update an activity, unknown (500 text)", "COACH", "POST", "/activite/update/2147480001", 500, {
        json: { sessionId: session }
      })
      await call("update an activity, id zero (500 text)", "COACH", "POST", "/activite/update/0", 500, {
        json: { sessionId: session },
        input: "invalid"
      })
      await call("activities of the session", "ATHLETE", "GET", `/athletes/athletes/session/${session}/activities`, 200)
      await call("delete an activity", "COACH", "DELETE", `/activite/delete/${activity}`, 200)
      await call("delete an activity, unknown (500 text)", "COACH", "DELETE", `/activite/delete/${activity}`, 500)
    })

    it("the athlete-session queries", async () => {
      const athlete = club().athleteId
      await call("create a session with the athlete", "COACH", "POST", "/session/create", 201, {
        json: { name: "Dated", creneau: "2026-06-15T10:00:00", athleteIds: [athlete] }
      })
      await call("sessions of an athlete", "ATHLETE", "GET", `/athletes/athlete/${athlete}/session`, 200)
      await call("sessions of an unknown athlete", "ADMIN", "GET", "/athletes/athlete/2147480001/session", 200)
      await call("all sessions in summary", "ADMIN", "GET", "/athletes/athletes/session", 200)
      await call("sessions after a date", "COACH", "GET", `/athletes/athletes/${athlete}/session/after/2026-06-01`, 200)
      await call(
        "sessions between dates",
        "COACH",
        "GET",
        `/athletes/athletes/${athlete}/session/between/2026-06-01/2026-07-01`,
        200
      )
      await call(
        "sessions after a date that is none",
        "COACH",
        "GET",
        `/athletes/athletes/${athlete}/session/after/tomorrow`,
        400,
        { input: "invalid" }
      )
      await call(
        "activities of an unknown session",
        "COACH",
        "GET",
        "/athletes/athletes/session/2147480001/activities",
        200
      )
      await call("sessions of an athlete without a token", "none", "GET", `/athletes/athlete/${athlete}/session`, 401, {
        input: "invalid"
      })
    })

    it("users and admins", async () => {
      const name = unique("prism-user")
      const user = await call("create a user", "ADMIN", "POST", "/users/create", 201, {
        json: { name, email: "prism@club.test", role: "ATHLETE", password: "athlete-password-1" }
      })
      const id = idOf(user)
      ownerToken = ((await send(club().url, "POST", "/auth/login", {
        token: null,
        json: { name, password: "athlete-password-1" }
      })).body as { token: string }).token
      await call("read a user, as that user", "owner", "GET", `/users/${id}`, 200)
      await call("read another user, as a user", "owner", "GET", `/users/${club().user.ADMIN.id}`, 403)
      await call("create a user, name taken", "ADMIN", "POST", "/users/create", 409, {
        json: { name, role: "COACH", password: "long-enough" }
      })
      await call("create a user, short password", "ADMIN", "POST", "/users/create", 400, {
        json: { name: unique("u"), role: "COACH", password: "short" },
        input: "invalid"
      })
      await call("create a user, unknown role", "ADMIN", "POST", "/users/create", 400, {
        json: { name: unique("u"), role: "OWNER", password: "long-enough" },
        input: "invalid"
      })
      // The document lists the roles as clients should write them; the server also reads other letter cases.
      await call("create a user, role in lower case", "ADMIN", "POST", "/users/create", 201, {
        json: { name: unique("u"), role: "coach", password: "long-enough" },
        input: "invalid"
      })
      await call("create a user, link to an unknown record", "ADMIN", "POST", "/users/create", 400, {
        json: { name: unique("u"), role: "COACH", password: "long-enough", coachId: 2_147_480_001 }
      })
      await call("list users", "ADMIN", "GET", "/users/all", 200)
      await call("list users, as a coach", "COACH", "GET", "/users/all", 403)
      await call("read a user, unknown", "ADMIN", "GET", "/users/2147480001", 404)
      await call("update a user", "ADMIN", "PUT", `/users/update/${id}`, 200, {
        json: { email: null, password: "a-new-password" }
      })
      await call("update a user, unknown", "ADMIN", "PUT", "/users/update/2147480001", 404, { json: { email: null } })
      await call("demote the last admin", "ADMIN", "PUT", `/users/update/${club().user.ADMIN.id}`, 409, {
        json: { role: "COACH" }
      })
      await call("delete a user", "ADMIN", "DELETE", `/users/delete/${id}`, 204)
      await call("delete a user, unknown", "ADMIN", "DELETE", `/users/delete/${id}`, 404)

      const admin = idOf(
        await call("create an admin record", "ADMIN", "POST", "/admins/create", 201, { json: { name: "Second admin" } })
      )
      await call("create an admin record, taken id", "ADMIN", "POST", "/admins/create", 409, { json: { id: admin } })
      await call("list admin records", "ADMIN", "GET", "/admins/all", 200)
      await call("read an admin record", "ADMIN", "GET", `/admins/${admin}`, 200)
      await call("read an admin record, unknown", "ADMIN", "GET", "/admins/2147480001", 404)
      await call("read an admin record, as a coach", "COACH", "GET", `/admins/${admin}`, 403)
      await call("update an admin record", "ADMIN", "PUT", `/admins/update/${admin}`, 200, {
        json: { name: "Renamed admin" }
      })
      await call("delete an admin record", "ADMIN", "DELETE", `/admins/delete/${admin}`, 204)
      await call("delete an admin record, unknown", "ADMIN", "DELETE", `/admins/delete/${admin}`, 404)
    })

    it("idempotency keys, media types and body size", async () => {
      const key = unique("key")
      const body = { name: "Idempotent coach" }
      await call("a write with an idempotency key", "ADMIN", "POST", "/coaches/create", 201, {
        json: body,
        headers: { "idempotency-key": key }
      })
      const replay = await call("its repeat, replayed", "ADMIN", "POST", "/coaches/create", 201, {
        json: body,
        headers: { "idempotency-key": key }
      })
      expect(replay.headers.get("idempotent-replayed")).toBe("true")
      await call("the key with another body", "ADMIN", "POST", "/coaches/create", 422, {
        json: { name: "Another" },
        headers: { "idempotency-key": key }
      })
      await call("a malformed key", "ADMIN", "POST", "/coaches/create", 400, {
        json: body,
        headers: { "idempotency-key": "has spaces" },
        input: "invalid"
      })
      await call("a body of another media type", "ADMIN", "POST", "/coaches/create", 415, {
        body: "name=x",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        input: "invalid"
      })
      await call("a body over 1 MiB", "ADMIN", "POST", "/coaches/create", 413, {
        json: { name: "x".repeat(1024 * 1024) },
        input: "invalid"
      })
    })

    /** The club's wall-clock time `days` from today at `time` (the suite's club zone is UTC). */
    const fromToday = (days: number, time: string) =>
      `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${time}`
    /** A coach of its own, so that the bookings of one flow never clash with another's. */
    const newCoach = async (step: string) =>
      idOf(await call(step, "ADMIN", "POST", "/coaches/create", 201, { json: { name: unique("Planner") } }))
    const newAthlete = async (step: string) =>
      idOf(await call(step, "ADMIN", "POST", "/athletes/create", 201, { json: { name: unique("Replier") } }))
    interface SeriesBody {
      readonly id: number
      readonly occurrences: ReadonlyArray<{ readonly sessionId: number }>
    }
    const occurrencesOf = (reply: Reply) => (reply.body as SeriesBody).occurrences.map((o) => o.sessionId)

    it("planning: recurring series", async () => {
      // The calling coach's own series (issue 36: a coach creates for itself; no coachId is the caller).
      const athlete = await newAthlete("create an athlete for a series")
      const created = await call("create a series", "COACH", "POST", "/planning/series", 201, {
        json: {
          name: unique("Daily track"),
          groupe: "Seniors",
          athleteIds: [athlete],
          duree: 60,
          start: fromToday(2, "06:00:00"),
          rrule: "FREQ=DAILY;COUNT=4"
        }
      })
      const series = idOf(created)
      const [first, second, third] = occurrencesOf(created)
      await call("create a series booking its coach again", "COACH", "POST", "/planning/series", 409, {
        json: { duree: 30, start: fromToday(2, "06:30:00"), rrule: "FREQ=DAILY;COUNT=1" }
      })
      // The document bounds the rule's length only; the subset is the server's to check.
      await call("create a series, an RRULE outside the subset", "COACH", "POST", "/planning/series", 400, {
        json: { duree: 60, start: fromToday(2, "06:00:00"), rrule: "FREQ=MONTHLY;COUNT=2" }
      })
      await call("create a series, an empty RRULE", "COACH", "POST", "/planning/series", 400, {
        json: { duree: 60, start: fromToday(2, "06:00:00"), rrule: "" },
        input: "invalid"
      })
      await call("create a series without rrule", "COACH", "POST", "/planning/series", 400, {
        json: { duree: 60, start: fromToday(2, "06:00:00") },
        input: "invalid"
      })
      await call("create a series, start with an offset", "COACH", "POST", "/planning/series", 400, {
        json: { duree: 60, start: "2026-03-26T18:00:00+01:00", rrule: "FREQ=DAILY;COUNT=2" },
        input: "invalid"
      })
      await call("create a series, unknown athlete", "COACH", "POST", "/planning/series", 400, {
        json: { duree: 60, start: fromToday(2, "07:30:00"), rrule: "FREQ=DAILY;COUNT=2", athleteIds: [2_147_480_001] }
      })
      await call("create a series, as an athlete", "ATHLETE", "POST", "/planning/series", 403, {
        json: { duree: 60, start: fromToday(2, "06:00:00"), rrule: "FREQ=DAILY;COUNT=2" }
      })
      await call("read a series", "ATHLETE", "GET", `/planning/series/${series}`, 200)
      await call("read a series, unknown", "ADMIN", "GET", "/planning/series/2147480001", 404)
      await call("read a series, id zero", "ADMIN", "GET", "/planning/series/0", 400, { input: "invalid" })

      await call("change a series", "COACH", "PATCH", `/planning/series/${series}`, 200, {
        json: { name: "Renamed track", time: "07:00:00" }
      })
      await call("change a series, a time of day that is none", "COACH", "PATCH", `/planning/series/${series}`, 400, {
        json: { time: "25:00:00" },
        input: "invalid"
      })
      await call("change a series, unknown", "COACH", "PATCH", "/planning/series/2147480001", 404, {
        json: { name: "Nobody's" }
      })
      await call("change a series, as an athlete", "ATHLETE", "PATCH", `/planning/series/${series}`, 403, {
        json: { name: "Not allowed" }
      })
      const occurrence = (sessionId: number | undefined, query = "") =>
        `/planning/series/${series}/occurrences/${sessionId}${query}`
      await call("change one occurrence", "COACH", "PATCH", occurrence(second, "?scope=one"), 200, {
        json: { creneau: fromToday(3, "19:00:00"), name: "Moved" }
      })
      await call(
        "change an occurrence and the following",
        "COACH",
        "PATCH",
        occurrence(third, "?scope=following"),
        200,
        {
          json: { duree: 45 }
        }
      )
      await call("change an occurrence, unknown scope", "COACH", "PATCH", occurrence(first, "?scope=all"), 400, {
        json: { duree: 45 },
        input: "invalid"
      })
      await call("change an occurrence, not of the series", "COACH", "PATCH", occurrence(2_147_480_001), 404, {
        json: { duree: 45 }
      })
      await call("cancel one occurrence", "COACH", "DELETE", occurrence(first), 204)
      await call("cancel an occurrence, unknown scope", "COACH", "DELETE", occurrence(second, "?scope=all"), 400, {
        input: "invalid"
      })
      await call("cancel an occurrence, as an athlete", "ATHLETE", "DELETE", occurrence(second), 403)
      await call("cancel an occurrence, not of the series", "COACH", "DELETE", occurrence(2_147_480_001), 404)

      // Two occurrences days ago, two in the days to come.
      const around = await call("create a series around today", "COACH", "POST", "/planning/series", 201, {
        json: { duree: 60, start: fromToday(-3, "05:00:00"), rrule: "FREQ=DAILY;INTERVAL=2;COUNT=4" }
      })
      const aroundPath = `/planning/series/${idOf(around)}`
      // What has started is never changed: 400 naming sessionId, for a request the document allows.
      await call(
        "cancel an occurrence that has started",
        "COACH",
        "DELETE",
        `${aroundPath}/occurrences/${occurrencesOf(around)[0]}`,
        400
      )
      // The change ends the series before its first occurrence to come; a new series (the answer) continues it.
      const continued = await call("change a series with past occurrences", "COACH", "PATCH", aroundPath, 200, {
        json: { name: "Continued" }
      })
      await call(
        "cancel an occurrence and the following",
        "COACH",
        "DELETE",
        `/planning/series/${idOf(continued)}/occurrences/${occurrencesOf(continued)[0]}?scope=following`,
        204
      )
      await call("cancel a series, as an athlete", "ATHLETE", "DELETE", `/planning/series/${series}`, 403)
      await call("cancel a series", "COACH", "DELETE", `/planning/series/${series}`, 204)
      await call("cancel a series, unknown", "COACH", "DELETE", "/planning/series/2147480001", 404)
    })

    it("planning: double bookings", async () => {
      const coach = await newCoach("create a coach booked twice")
      for (const creneau of ["2031-02-03T10:00:00", "2031-02-03T10:30:00"]) {
        // The seed's create does not check bookings: the conflicts endpoint finds them.
        await call(`create a seed session at ${creneau}`, "COACH", "POST", "/session/create", 201, {
          json: { name: unique("Overlapping"), creneau, duree: 60, coachId: coach }
        })
      }
      await call("double bookings, as a coach", "COACH", "GET", "/planning/conflicts", 200)
      await call("double bookings, as an admin", "ADMIN", "GET", "/planning/conflicts", 200)
      await call("double bookings, as an athlete", "ATHLETE", "GET", "/planning/conflicts", 403)
    })

    it("planning: sessions, paged and written with their bookings checked", async () => {
      // The calling coach's own sessions (issue 36: no coachId is the caller).
      const groupe = unique("Planned")
      const planned = await call("create a planned session", "COACH", "POST", "/planning/sessions", 201, {
        json: { name: "Planned", groupe, athleteIds: [], duree: 60, creneau: "2031-05-05T10:00:00" }
      })
      const later = await call("create a planned session after it", "COACH", "POST", "/planning/sessions", 201, {
        json: { groupe, duree: 60, creneau: "2031-05-05T11:00:00" }
      })
      await call("create a planned session, double booking", "COACH", "POST", "/planning/sessions", 409, {
        json: { duree: 30, creneau: "2031-05-05T10:30:00" }
      })
      await call("create a planned session without creneau", "COACH", "POST", "/planning/sessions", 400, {
        json: { duree: 30 },
        input: "invalid"
      })
      // Another coach's id, known or not, is not the caller's to plan for.
      await call("create a planned session, another coach's id", "COACH", "POST", "/planning/sessions", 403, {
        json: { coachId: 2_147_480_001, duree: 30, creneau: "2031-05-06T10:00:00" }
      })
      await call("create a planned session, as an athlete", "ATHLETE", "POST", "/planning/sessions", 403, {
        json: { duree: 30, creneau: "2031-05-06T10:00:00" }
      })
      const plannedAt = (session: Reply) => `/planning/sessions/${idOf(session)}`
      await call("change a planned session", "COACH", "PATCH", plannedAt(later), 200, {
        json: { name: "Later", duree: 45 }
      })
      await call("change a planned session into a double booking", "COACH", "PATCH", plannedAt(later), 409, {
        json: { creneau: "2031-05-05T10:15:00" }
      })
      await call("change a planned session, zero duree", "COACH", "PATCH", plannedAt(planned), 400, {
        json: { duree: 0 },
        input: "invalid"
      })
      await call("change a planned session, unknown", "COACH", "PATCH", "/planning/sessions/2147480001", 404, {
        json: { duree: 30 }
      })
      await call("change a planned session, as an athlete", "ATHLETE", "PATCH", plannedAt(planned), 403, {
        json: { duree: 30 }
      })
      const first = await call(
        "sessions of the planning, a page",
        "ATHLETE",
        "GET",
        `/planning/sessions?groupe=${groupe}&limit=1`,
        200
      )
      const cursor = (first.body as { nextCursor: string }).nextCursor
      await call(
        "sessions of the planning, the next page",
        "COACH",
        "GET",
        `/planning/sessions?groupe=${groupe}&limit=1&cursor=${cursor}`,
        200
      )
      await call(
        "sessions of the planning, filtered",
        "ADMIN",
        "GET",
        `/planning/sessions?coachId=${club().coachId}&from=2031-05-05T00:00:00&to=2031-05-06T00:00:00`,
        200
      )
      await call("sessions of the planning, limit 0", "COACH", "GET", "/planning/sessions?limit=0", 400, {
        input: "invalid"
      })
      await call("sessions of the planning, limit over 500", "COACH", "GET", "/planning/sessions?limit=501", 400, {
        input: "invalid"
      })
      await call(
        "sessions of the planning, a cursor the API never gave",
        "COACH",
        "GET",
        "/planning/sessions?cursor=e30",
        400
      )
      await call(
        "sessions of the planning, from not a date-time",
        "COACH",
        "GET",
        "/planning/sessions?from=tomorrow",
        400,
        { input: "invalid" }
      )
      await call("sessions of the planning without a token", "none", "GET", "/planning/sessions", 401, {
        input: "invalid"
      })
    })

    it("attendance: settings and replies, capacity and waiting list", async () => {
      const own = club().athleteId
      const [second, third] = [await newAthlete("create a second replier"), await newAthlete("create a third replier")]
      // Far enough ahead that replies are open whenever the suite runs.
      const session = idOf(
        await call("create a session to reply to", "COACH", "POST", "/session/create", 201, {
          json: {
            name: unique("Replies"),
            creneau: "2099-06-01T18:00:00",
            coachId: club().coachId,
            athleteIds: [own, second, third]
          }
        })
      )
      const settings = `/attendance/sessions/${session}/settings`
      await call("set capacity and cut-off", "COACH", "PUT", settings, 200, {
        json: { capacity: 1, replyCutoff: "2099-06-01T12:00:00" }
      })
      await call("set a negative capacity", "COACH", "PUT", settings, 400, { json: { capacity: -1 }, input: "invalid" })
      await call("set a cut-off that is not a date-time", "COACH", "PUT", settings, 400, {
        json: { replyCutoff: "tomorrow" },
        input: "invalid"
      })
      await call("set the settings, as an athlete", "ATHLETE", "PUT", settings, 403, { json: { capacity: 5 } })
      await call("set the settings of no session", "COACH", "PUT", "/attendance/sessions/2147480001/settings", 404, {
        json: { capacity: 5 }
      })
      const reply = (athlete: number, query = "") => `/attendance/athletes/${athlete}/replies/${session}${query}`
      await call("reply yes, confirmed", "ATHLETE", "PUT", reply(own), 200, { json: { answer: "yes" } })
      await call("reply yes beyond the capacity, waiting", "COACH", "PUT", reply(second, "?scope=one"), 200, {
        json: { answer: "yes", reason: "if there is room" }
      })
      await call("reply maybe", "COACH", "PUT", reply(third), 200, { json: { answer: "maybe", reason: "exams" } })
      await call("reply no, the first waiting confirmed", "ATHLETE", "PUT", reply(own), 200, { json: { answer: "no" } })
      await call("the session's replies", "ATHLETE", "GET", `/attendance/sessions/${session}/replies`, 200)
      await call("the replies of no session", "COACH", "GET", "/attendance/sessions/2147480001/replies", 404)
      await call("reply with an answer that is none", "ATHLETE", "PUT", reply(own), 400, {
        json: { answer: "perhaps" },
        input: "invalid"
      })
      await call("reply without an answer", "ATHLETE", "PUT", reply(own), 400, { json: {}, input: "invalid" })
      await call("reply with an unknown scope", "ATHLETE", "PUT", reply(own, "?scope=all"), 400, {
        json: { answer: "yes" },
        input: "invalid"
      })
      await call("reply for another athlete, as an athlete", "ATHLETE", "PUT", reply(second), 403, {
        json: { answer: "no" }
      })
      const outsider = await newAthlete("create an athlete outside the session")
      await call("reply for an athlete not of the session", "COACH", "PUT", reply(outsider), 400, {
        json: { answer: "yes" }
      })
      await call("reply to no session", "COACH", "PUT", `/attendance/athletes/${own}/replies/2147480001`, 404, {
        json: { answer: "yes" }
      })
      const started = idOf(
        await call("create a session that has started", "COACH", "POST", "/session/create", 201, {
          json: { creneau: "2020-01-01T18:00:00", coachId: club().coachId, athleteIds: [own] }
        })
      )
      await call(
        "reply once replies have closed",
        "ATHLETE",
        "PUT",
        `/attendance/athletes/${own}/replies/${started}`,
        409,
        {
          json: { answer: "yes" }
        }
      )

      const series = await call("create a weekly series to reply to", "COACH", "POST", "/planning/series", 201, {
        json: {
          coachId: club().coachId,
          athleteIds: [own],
          duree: 60,
          start: fromToday(2, "21:00:00"),
          rrule: "FREQ=WEEKLY;COUNT=3"
        }
      })
      await call(
        "reply to an occurrence and the following",
        "ATHLETE",
        "PUT",
        `/attendance/athletes/${own}/replies/${occurrencesOf(series)[1]}?scope=following`,
        200,
        { json: { answer: "no", reason: "away" } }
      )
    })

    it("attendance: who came, figures and the season's export", async () => {
      const own = club().athleteId
      const other = await newAthlete("create an athlete who came")
      // The seed's create takes a creneau in the past: a session that has started, whose marks may be recorded.
      const past = idOf(
        await call("create a session that took place", "COACH", "POST", "/session/create", 201, {
          json: {
            name: "Track",
            groupe: unique("Marked"),
            creneau: "2020-03-01T18:00:00",
            coachId: club().coachId,
            athleteIds: [own, other]
          }
        })
      )
      const presence = `/attendance/sessions/${past}/presence`
      await call("record who came", "COACH", "PUT", presence, 200, {
        json: { marks: [{ athleteId: own, status: "present" }, { athleteId: other, status: "late" }] }
      })
      await call("correct a mark", "COACH", "PUT", presence, 200, {
        json: { marks: [{ athleteId: other, status: "excused" }] }
      })
      await call("record a status that is none", "COACH", "PUT", presence, 400, {
        json: { marks: [{ athleteId: own, status: "there" }] },
        input: "invalid"
      })
      await call("record without marks", "COACH", "PUT", presence, 400, { json: {}, input: "invalid" })
      await call("record an athlete marked twice", "COACH", "PUT", presence, 400, {
        json: { marks: [{ athleteId: own, status: "present" }, { athleteId: own, status: "late" }] }
      })
      await call("record who came, as an athlete", "ATHLETE", "PUT", presence, 403, {
        json: { marks: [{ athleteId: own, status: "present" }] }
      })
      await call("record who came at no session", "COACH", "PUT", "/attendance/sessions/2147480001/presence", 404, {
        json: { marks: [] }
      })
      const ahead = idOf(
        await call("create a session still to come", "COACH", "POST", "/session/create", 201, {
          json: { creneau: "2099-06-01T18:00:00", coachId: club().coachId, athleteIds: [own] }
        })
      )
      await call("record who came before the start", "COACH", "PUT", `/attendance/sessions/${ahead}/presence`, 409, {
        json: { marks: [{ athleteId: own, status: "present" }] }
      })
      await call("who came", "ADMIN", "GET", presence, 200)
      await call("who came, as an athlete", "ATHLETE", "GET", presence, 403)
      await call("who came to no session", "COACH", "GET", "/attendance/sessions/2147480001/presence", 404)

      const period = "from=2020-03-01&to=2020-03-31"
      await call("figures of the club", "COACH", "GET", `/attendance/figures?${period}`, 200)
      await call("figures of the club, as an athlete", "ATHLETE", "GET", `/attendance/figures?${period}`, 403)
      const figuresOf = (athlete: number) => `/attendance/athletes/${athlete}/figures?${period}`
      await call("figures of an athlete, as that athlete", "ATHLETE", "GET", figuresOf(own), 200)
      await call("figures of an athlete, as an admin", "ADMIN", "GET", figuresOf(other), 200)
      await call("figures of another athlete, as an athlete", "ATHLETE", "GET", figuresOf(other), 403)
      const csv = await call("export the season", "COACH", "GET", `/attendance/export?${period}`, 200)
      expect(csv.contentType).toBe("text/csv")
      await call("export the season, as an athlete", "ATHLETE", "GET", `/attendance/export?${period}`, 403)
      // A period that ends before it starts is well formed: the document cannot refuse it, the server does.
      const backwards = "from=2020-03-31&to=2020-03-01"
      await call("figures of a period ending before it starts", "ADMIN", "GET", `/attendance/figures?${backwards}`, 400)
      await call(
        "figures of an athlete, a period ending before it starts",
        "COACH",
        "GET",
        `/attendance/athletes/${own}/figures?${backwards}`,
        400
      )
      await call("export a period ending before it starts", "COACH", "GET", `/attendance/export?${backwards}`, 400)
      await call(
        "figures from a day that is none",
        "COACH",
        "GET",
        "/attendance/figures?from=yesterday&to=2020-03-01",
        400,
        { input: "invalid" }
      )
      await call(
        "figures of an athlete without to",
        "COACH",
        "GET",
        `/attendance/athletes/${own}/figures?from=2020-03-01`,
        400,
        { input: "invalid" }
      )
      await call(
        "export from a day that is none",
        "COACH",
        "GET",
        "/attendance/export?from=2020-02-30x&to=2020-03-01",
        400,
        { input: "invalid" }
      )
    })

    it("attendance: webhooks", async () => {
      // A name that resolves to nothing (`.invalid`): deliveries fail and are retried, which these exchanges do not wait for.
      const created = await call("register a webhook", "ADMIN", "POST", "/attendance/webhooks", 201, {
        json: { url: "http://receiver.invalid/club-events", secret: "a-secret-of-enough-length" }
      })
      const webhook = idOf(created)
      await call("list webhooks", "ADMIN", "GET", "/attendance/webhooks", 200)
      await call("a webhook's deliveries", "ADMIN", "GET", `/attendance/webhooks/${webhook}/deliveries`, 200)
      await call("deliver a webhook's events again", "ADMIN", "POST", `/attendance/webhooks/${webhook}/replay`, 200)
      await call(
        "deliver again from an event",
        "ADMIN",
        "POST",
        `/attendance/webhooks/${webhook}/replay?fromEventId=1`,
        200
      )
      await call(
        "deliver again from event 0",
        "ADMIN",
        "POST",
        `/attendance/webhooks/${webhook}/replay?fromEventId=0`,
        400,
        { input: "invalid" }
      )
      await call("register a webhook, not http(s)", "ADMIN", "POST", "/attendance/webhooks", 400, {
        json: { url: "ftp://receiver.test/", secret: "a-secret-of-enough-length" },
        input: "invalid"
      })
      await call("register a webhook, a secret under 16 characters", "ADMIN", "POST", "/attendance/webhooks", 400, {
        json: { url: "https://receiver.test/", secret: "ten-chars!" },
        input: "invalid"
      })
      await call("register a webhook without a secret", "ADMIN", "POST", "/attendance/webhooks", 400, {
        json: { url: "https://receiver.test/" },
        input: "invalid"
      })
      await call("register a webhook, as a coach", "COACH", "POST", "/attendance/webhooks", 403, {
        json: { url: "https://receiver.test/", secret: "a-secret-of-enough-length" }
      })
      await call("list webhooks, as an athlete", "ATHLETE", "GET", "/attendance/webhooks", 403)
      await call("remove a webhook", "ADMIN", "DELETE", `/attendance/webhooks/${webhook}`, 204)
      await call("remove a webhook, unknown", "ADMIN", "DELETE", `/attendance/webhooks/${webhook}`, 404)
      await call("the deliveries of no webhook", "ADMIN", "GET", `/attendance/webhooks/${webhook}/deliveries`, 404)
      await call("deliver again to no webhook", "ADMIN", "POST", `/attendance/webhooks/${webhook}/replay`, 404)
    })

    it("calendar feeds", async () => {
      const groupe = unique("Fed")
      await call("create a session for the feeds", "COACH", "POST", "/session/create", 201, {
        json: {
          name: "In the feeds",
          groupe,
          creneau: "2031-03-29T10:00:00",
          duree: 90,
          coachId: club().coachId,
          athleteIds: [club().athleteId]
        }
      })
      const athleteToken = await call("a feed token, as an athlete", "ATHLETE", "POST", "/planning/feed-token", 200)
      const athleteFeed = (athleteToken.body as { athlete: string }).athlete
      const coachFeeds = await call("a feed token, as a coach", "COACH", "POST", "/planning/feed-token", 200)
      const coachToken = coachFeeds.body as { readonly token: string; readonly coach: string }
      await call("a feed token without a token", "none", "POST", "/planning/feed-token", 401, { input: "invalid" })
      const feed = await call("an athlete's feed", "none", "GET", athleteFeed, 200)
      expect(feed.contentType).toBe("text/calendar")
      await call("an athlete's feed, unchanged since", "none", "GET", athleteFeed, 304, {
        headers: { "if-none-match": feed.headers.get("etag")! }
      })
      await call("a coach's feed", "none", "GET", coachToken.coach, 200)
      await call(
        "a group's feed",
        "none",
        "GET",
        `/planning/feeds/${coachToken.token}/group/${encodeURIComponent(groupe)}.ics`,
        200
      )
      await call(
        "a feed, its file not .ics",
        "none",
        "GET",
        `/planning/feeds/${coachToken.token}/coach/${club().coachId}`,
        400,
        { input: "invalid" }
      )
      await call(
        "a feed, a token of the wrong form",
        "none",
        "GET",
        `/planning/feeds/short/coach/${club().coachId}.ics`,
        400,
        { input: "invalid" }
      )
      await call("remove the feed token", "ATHLETE", "DELETE", "/planning/feed-token", 204)
      await call("the feed of a removed token", "none", "GET", athleteFeed, 404)
    })

    it("finds no answer the document does not declare, and agrees with the server on every request", () => {
      const describe = (exchange: Exchange) =>
        `${exchange.step}: ${exchange.reply.method} ${exchange.reply.path} answered ${exchange.reply.status} ${
          exchange.reply.contentType ?? ""
        } ${exchange.reply.text.slice(0, 200)}`
      expect(exchanges.length).toBeGreaterThan(100)
      expect(exchanges.filter((exchange) => exchange.reply.status !== exchange.expectedStatus).map(describe)).toEqual(
        []
      )
      const undeclared = exchanges.flatMap((exchange) =>
        exchange.violations.filter((violation) => violation.location[0] !== "request").map((violation) =>
          `${describe(exchange)}: ${violation.message}`
        )
      )
      expect(undeclared).toEqual([])
      const refusedByTheDocument = exchanges.filter((exchange) =>
        exchange.input === "valid" && exchange.violations.length > 0
      )
        .map((exchange) =>
          `${describe(exchange)}: ${exchange.violations.map((violation) => violation.message).join("; ")}`
        )
      expect(refusedByTheDocument).toEqual([])
      const allowedByTheDocument = exchanges.filter((exchange) =>
        exchange.input === "invalid" && exchange.violations.length === 0
      ).map(describe)
      expect(allowedByTheDocument).toEqual([])
    })
  }
)
