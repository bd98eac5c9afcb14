import { describe, expect, it } from "vitest"
import { contractEndpoints } from "./fuzz/contract.ts"
import { generateRequests, type Pools, type Tokens } from "./fuzz/requests.ts"
import { runRestFuzz } from "./fuzz/runRestFuzz.ts"
import { apiDigest } from "./support/apiDigest.ts"
import { budget, isLongRun } from "./support/budget.ts"
import { type DatabaseKind, jwtSecret, postgresAnswers } from "./support/Deployment.ts"
import { databaseLabel, oneInstance } from "./support/oneInstance.ts"
import { expectStatus, type Principals } from "./support/principals.ts"
import { rawClient } from "./support/rawHttp.ts"
import { recordResult } from "./support/results.ts"
import { databaseDigest } from "./support/Sql.ts"
import { nowSeconds, signToken } from "../rest/support/tokens.ts"

/** CI fuzzes one server: the real PostgreSQL where one answers, else the embedded database. The long run fuzzes both. */
const targets: ReadonlyArray<DatabaseKind> = isLongRun
  ? ["server", "embedded"]
  : [postgresAnswers ? "server" : "embedded"]
/** Fixed in CI, so that a failure replays; the long run draws a new one each time (printed, and FUZZ_SEED replays it). */
const seed = Number(process.env["FUZZ_SEED"] ?? (isLongRun ? Date.now() % 1_000_000_000 : 20_261_122))

/** Records for the generated requests to find: a few of each kind, sessions with athletes and themed activities. */
const createPools = async (principals: Principals): Promise<{ pools: Pools; passwords: Array<string> }> => {
  const admin = principals.as("ADMIN")
  const coach = principals.as("COACH")
  const created = async (reply: Promise<{ status: number; body: unknown; text: string }>, what: string) =>
    (expectStatus(await reply as never, 201, what) as { body: { id: number } }).body.id
  const athletes = [principals.athleteId]
  for (let i = 0; i < 8; i++) {
    athletes.push(await created(admin.post("/athletes/create", { name: `Pool athlete ${i}` }), "athlete"))
  }
  const coaches = [principals.coachId]
  for (let i = 0; i < 4; i++) {
    coaches.push(await created(admin.post("/coaches/create", { name: `Pool coach ${i}` }), "coach"))
  }
  const admins: Array<number> = []
  for (let i = 0; i < 2; i++) {
    admins.push(await created(admin.post("/admins/create", { name: `Pool admin ${i}` }), "admin"))
  }
  const passwords: Array<string> = []
  const users: Array<number> = []
  for (const role of ["ATHLETE", "COACH", "ADMIN"]) {
    const password = `pool-${role.toLowerCase()}-password`
    passwords.push(password)
    users.push(
      await created(admin.post("/users/create", { name: `pool-${role.toLowerCase()}`, role, password }), "user")
    )
  }
  const themes = ["Cardio", "Technique", "Récupération 🧘"]
  const sessions: Array<number> = []
  for (let i = 0; i < 8; i++) {
    const session = await created(
      coach.post("/session/create", {
        name: `Pool session ${i}`,
        creneau: `2026-0${1 + (i % 9)}-1${i}T18:30:00`,
        coachId: principals.coachId,
        athleteIds: athletes.slice(0, 1 + (i % 4))
      }),
      "session"
    )
    sessions.push(session)
    for (const theme of themes.slice(0, 1 + (i % 3))) {
      expectStatus(
        await coach.post("/activite/create", { name: `${theme} ${i}`, theme, duree: 30, sessionId: session }),
        201,
        "activity"
      )
    }
  }
  const all = expectStatus(await coach.get("/session/all"), 200, "sessions").body as Array<
    { activiteIds: Array<number> }
  >
  return {
    pools: { athletes, coaches, sessions, activities: all.flatMap((s) => s.activiteIds), users, admins, themes },
    passwords
  }
}

const badTokens = (principals: Principals) => {
  const now = nowSeconds()
  const claims = { sub: String(principals.userId.ADMIN), role: "ADMIN" as const, iat: now - 10, exp: now + 3600 }
  const unsigned = signToken(claims).split(".").slice(0, 2).join(".")
  return {
    garbage: "not-a-token",
    expired: signToken({ ...claims, iat: now - 7200, exp: now - 3600 }, jwtSecret),
    forged: signToken(claims, "another-secret-another-secret-another-secret"),
    "alg-none": `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${
      unsigned.split(".")[1]
    }.`
  }
}

for (const kind of targets) {
  describe.skipIf(kind === "server" && !postgresAnswers)(
    `REST fuzzing from the contract's schemas (${databaseLabel(kind)})`,
    () => {
      const shared = oneInstance(kind)

      it(
        `${budget.restFuzzRequests} generated requests over every endpoint and role: each answer is declared by the contract, no 5xx but the seed's, refused requests change nothing, the server keeps serving`,
        async () => {
          const { deployment, server, principals } = shared
          const { pools, passwords } = await createPools(principals)
          const tokens: Tokens = { ...principals.token, none: null, ...badTokens(principals) }
          const requests = generateRequests(
            contractEndpoints,
            pools,
            tokens,
            budget.restFuzzRequests,
            seed,
            { users: Object.values(principals.userId), athletes: [principals.athleteId] }
          )
          const client = rawClient(server.port, { connections: budget.restFuzzConcurrency })
          const digest = deployment.sql === undefined
            ? apiDigest(principals.as("ADMIN"), principals.as("COACH"))
            : () => databaseDigest(deployment.sql!)
          const run = await runRestFuzz(requests, {
            client,
            concurrency: budget.restFuzzConcurrency,
            secrets: { passwords: [...Object.values(principals.password), ...passwords], jwtSecret },
            digest
          }).finally(() => client.close())

          const defectsLogged = server.logs().filter((line) => line.level === "ERROR")
          recordResult(`rest-fuzz-${kind}`, {
            seed,
            requests: run.requests,
            concurrency: budget.restFuzzConcurrency,
            durationMs: run.durationMs,
            requestsPerSecond: Math.round(run.requests / (run.durationMs / 1000)),
            endpoints: Object.keys(run.byEndpoint).length,
            accepted: run.accepted,
            refused: run.refused,
            refusedVerifiedUnchanged: run.refusedVerifiedUnchanged,
            violations: run.violationCount,
            violationKinds: run.violationKinds,
            defectsLogged: defectsLogged.length,
            latencyMs: run.latencyMs,
            byStatus: run.byStatus,
            byVariant: run.byVariant,
            byCaller: run.byCaller
          })

          // A defect first: its cause explains the violations it made (a 500 the contract does not declare).
          expect(defectsLogged.map((line) => `${String(line.message)} ${line.cause ?? ""}`.slice(0, 500))).toEqual([])
          expect(run.violations, `${run.violationCount} violations (seed ${seed})`).toEqual([])
          // Every endpoint, caller and kind of request was exercised, and some requests of each endpoint got through.
          expect(Object.keys(run.byEndpoint).sort()).toEqual([...contractEndpoints.map((e) => e.id), "unrouted"].sort())
          expect(Object.keys(run.byCaller).sort()).toEqual([
            "ADMIN",
            "ATHLETE",
            "COACH",
            "alg-none",
            "expired",
            "forged",
            "garbage",
            "none"
          ])
          expect(run.accepted).toBeGreaterThan(run.requests / 20)
          expect(run.refusedVerifiedUnchanged).toBeGreaterThan(run.refused / 2)
          // Still serving, and still answering the users it was fuzzed with.
          expect(server.child.exitCode).toBeNull()
          expectStatus(await principals.as("none").get("/health/ready"), 200, "readiness after fuzzing")
          for (const role of ["ADMIN", "COACH", "ATHLETE"] as const) {
            expectStatus(await principals.as(role).get("/auth/me"), 200, `${role} after fuzzing`)
          }
        },
        isLongRun ? 1_800_000 : 240_000
      )
    }
  )
}
