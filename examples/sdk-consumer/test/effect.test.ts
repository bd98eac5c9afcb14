import { athleteId, ClubApiClient, coachId, sessionId } from "@club/client-sdk"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { afterAll, beforeAll } from "vitest"
import { ADMIN_NAME, ADMIN_PASSWORD, type RunningServer, startServer } from "./startServer.ts"

let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server?.stop())

const asAdmin = <A, E>(program: Effect.Effect<A, E, ClubApiClient>) =>
  program.pipe(Effect.provide(ClubApiClient.layerLogin({ baseUrl: server.baseUrl, name: ADMIN_NAME, password: ADMIN_PASSWORD })))

describe("the Effect API of the built SDK", () => {
  it.live("calls the contract's endpoints with typed results", () =>
    asAdmin(Effect.gen(function*() {
      const club = yield* ClubApiClient
      assert.strictEqual(club.user?.role, "ADMIN")
      const coach = yield* club.coaches.create({ payload: { name: "Effect Coach" } })
      const read = yield* club.coaches.get({ params: { id: coachId(coach.id) } })
      assert.deepStrictEqual(read, coach)
      const me = yield* club.auth.me()
      assert.strictEqual(me.name, ADMIN_NAME)
    })))

  it.live("types each declared failure by its tag", () =>
    asAdmin(Effect.gen(function*() {
      const club = yield* ClubApiClient

      const coach = yield* club.coaches.get({ params: { id: coachId(999_999) } }).pipe(Effect.flip)
      assert.strictEqual(coach._tag, "NotFound")
      if (coach._tag === "NotFound") assert.strictEqual(coach.detail, "Coach not found")

      const athlete = yield* club.athletes.get({ params: { id: athleteId(999_999) } }).pipe(Effect.flip)
      assert.strictEqual(athlete._tag, "NotFoundEmpty")

      // Reading sessions is for coaches and athletes, not admins.
      const session = yield* club.sessions.get({ params: { id: sessionId(1) } }).pipe(Effect.flip)
      assert.strictEqual(session._tag, "Forbidden")

      const task = yield* club.todo.createTask({ title: "" }).pipe(Effect.flip)
      assert.strictEqual(task._tag, "TodoRpcError")
      assert.strictEqual(task.code, "invalid_argument")
      assert.match(task.message, /title/)
    })))

  it.live("recovers from a failure by its tag", () =>
    asAdmin(Effect.gen(function*() {
      const club = yield* ClubApiClient
      const name = yield* club.coaches.get({ params: { id: coachId(999_999) } }).pipe(
        Effect.map((coach) => coach.name),
        Effect.catchTag("NotFound", () => Effect.succeed("nobody"))
      )
      assert.strictEqual(name, "nobody")
    })))
})
