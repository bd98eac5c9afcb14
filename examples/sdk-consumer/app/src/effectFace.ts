import { athleteId, ClubApiClient, coachId, sessionId, withCallOptions } from "@club/client-sdk"
import { Effect } from "effect"
import { assert, step } from "./check.ts"

/** The Effect face: typed results, each declared failure typed by its tag, recovery by tag. */
export const effectFace = (baseUrl: string, adminPassword: string) =>
  step("effect: calls, typed failures and recovery", () =>
    Effect.runPromise(
      Effect.gen(function*() {
        const club = yield* ClubApiClient
        assert.equal(club.user?.role, "ADMIN")
        const coach = yield* club.coaches.create({ payload: { name: "Effect Coach" } }).pipe(
          withCallOptions({ idempotencyKey: crypto.randomUUID() })
        )
        assert.deepEqual(yield* club.coaches.get({ params: { id: coach.id } }), coach)
        assert.equal((yield* club.auth.me()).name, "admin")

        const missing = yield* club.coaches.get({ params: { id: coachId(999_999) } }).pipe(Effect.flip)
        assert.equal(missing._tag, "NotFound")
        const empty = yield* club.athletes.get({ params: { id: athleteId(999_999) } }).pipe(Effect.flip)
        assert.equal(empty._tag, "NotFoundEmpty")
        // Reading sessions is for coaches and athletes, not admins.
        const refused = yield* club.sessions.get({ params: { id: sessionId(1) } }).pipe(Effect.flip)
        assert.equal(refused._tag, "Forbidden")
        const blank = yield* club.todo.createTask({ title: "" }).pipe(Effect.flip)
        assert.equal(blank.code, "invalid_argument")

        const name = yield* club.coaches.get({ params: { id: coachId(999_999) } }).pipe(
          Effect.map((found) => found.name),
          Effect.catchTag("NotFound", () => Effect.succeed("nobody")),
          Effect.timeout("10 seconds")
        )
        assert.equal(name, "nobody")
        const tasks = yield* club.todo.listTasks()
        assert.ok(Array.isArray(tasks))
      }).pipe(Effect.provide(ClubApiClient.layerLogin({ baseUrl, name: "admin", password: adminPassword })))
    ))
