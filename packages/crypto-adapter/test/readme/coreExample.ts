import { AuthService, CoachCreate, CoachService, CurrentActor, UseCasesLive, UserService } from "@club/core"
import { InMemoryRepositories } from "@club/core/testing"
import { HmacCursorSeal, JwtTokenSigner, ScryptPasswordHasher } from "@club/crypto-adapter"
import { Effect, Layer, Redacted } from "effect"

// Every use-case, on in-memory ports; in an application the secret comes from its configuration.
const secret = new TextEncoder().encode("an example secret of at least 32 bytes")
const Club = UseCasesLive.pipe(
  Layer.provide(Layer.mergeAll(
    InMemoryRepositories,
    ScryptPasswordHasher.layer(),
    JwtTokenSigner.layer(secret),
    HmacCursorSeal.layer(secret)
  ))
)

const program = Effect.gen(function*() {
  const password = Redacted.make("correct horse battery staple")
  yield* UserService.use((users) => users.ensureFirstAdmin("admin", password))
  const auth = yield* AuthService
  const { token } = yield* auth.login({ name: "admin", password, clientAddress: null })
  // A use-case runs as the actor a token stands for; the role table decides what it may do.
  const admin = yield* auth.authenticate(token)
  const coaches = yield* CoachService
  const coach = coaches.create(new CoachCreate({ id: null, name: "Marie" }))
  return yield* coach.pipe(Effect.provideService(CurrentActor, admin))
})

const coach = await Effect.runPromise(program.pipe(Effect.provide(Club)))
console.log(`Coach ${coach.name} created with id ${coach.id}`)
