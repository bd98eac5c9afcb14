import {
  AthleteId,
  AuthService,
  CoachCreate,
  CoachService,
  CurrentActor,
  SessionCreate,
  SessionService,
  UseCasesLive,
  UserService
} from "@club/core"
import { InMemoryRepositories } from "@club/core/testing"
import { HmacCursorSeal, JwtTokenSigner, ScryptPasswordHasher } from "@club/crypto-adapter"
import { Effect, Layer, Redacted } from "effect"
import { assert, step } from "./check.ts"

/**
 * The core as a library, in this process: every use-case assembled from the installed packages
 * alone (in-memory ports, the crypto adapter), its role rules and referential rules kept.
 */
export const coreLibrary = () =>
  step("core as a library: use-cases on @club/core/testing and @club/crypto-adapter", async () => {
    const secret = new TextEncoder().encode("the consumer app's secret, 32 bytes or more")
    const Club = UseCasesLive.pipe(
      Layer.provide(
        Layer.mergeAll(
          InMemoryRepositories,
          ScryptPasswordHasher.layer({ N: 1024, r: 8, p: 1 }),
          JwtTokenSigner.layer(secret),
          HmacCursorSeal.layer(secret)
        )
      )
    )
    const program = Effect.gen(function*() {
      const password = Redacted.make("a consumer's password")
      yield* UserService.use((users) => users.ensureFirstAdmin("admin", password))
      const auth = yield* AuthService
      const admin = yield* auth.authenticate(
        (yield* auth.login({ name: "admin", password, clientAddress: null })).token
      )
      const asAdmin = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, CurrentActor, admin)
      const coach = yield* asAdmin(
        CoachService.use((coaches) => coaches.create(new CoachCreate({ id: null, name: "Marie" })))
      )
      const sessions = yield* SessionService
      const base = {
        id: null,
        name: "Sprint",
        isRecurrent: false,
        creneau: null,
        duree: 60,
        groupe: null,
        athleteIds: [],
        activiteIds: []
      }
      // The role table holds without any adapter: sessions are the coaches' business, not the admin's.
      const forbidden = yield* asAdmin(sessions.create(new SessionCreate({ ...base, coachId: coach.id }))).pipe(
        Effect.flip
      )
      const asCoach = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.provideService(effect, CurrentActor, { ...admin, role: "COACH", adminId: null, coachId: coach.id })
      const session = yield* asCoach(sessions.create(new SessionCreate({ ...base, coachId: coach.id })))
      // The in-memory ports keep PostgreSQL's referential rules: an athlete that does not exist is refused.
      const unknown = yield* asCoach(
        sessions.create(new SessionCreate({ ...base, coachId: coach.id, athleteIds: [AthleteId.make(999)] }))
      ).pipe(Effect.flip)
      return { coach, session, unknown, forbidden }
    })
    const { coach, forbidden, session, unknown } = await Effect.runPromise(program.pipe(Effect.provide(Club)))
    assert.equal(coach.name, "Marie")
    assert.equal(session.coachId, coach.id)
    assert.equal(unknown._tag, "UnknownReferences")
    assert.equal(forbidden._tag, "NotPermitted")
  })
