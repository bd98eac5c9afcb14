import { AuthService, CurrentActor, type DomainError, isAllowed, type Operation } from "@club/core"
import { Cause, Context, Effect, Exit, Option, Schema } from "effect"
import type { HttpApiEndpoint } from "effect/http-api"
import type { IncomingMessage, ServerResponse } from "node:http"
import {
  ActivitiesGroup,
  AdminsGroup,
  AthletesGroup,
  CoachesGroup,
  SessionsGroup,
  UsersGroup
} from "@club/contract/rest"
import { RequiredOperation } from "@club/contract/rest"
import { RecordReads } from "../handlers/recordReads.ts"
import { plainBearerToken, plainReadPath } from "./plainRead.ts"

/**
 * Answers a request itself (true), or leaves it to the API (false). Having taken one, it may still
 * hand it over through `fallback` before anything is written.
 */
export type FastReadsHandler = (request: IncomingMessage, response: ServerResponse, fallback: () => void) => boolean

interface FastRead {
  readonly operation: Operation
  readonly decodeId: (id: string) => Option.Option<number>
  readonly encode: (dto: unknown) => unknown
  readonly read: (id: number) => Effect.Effect<unknown, DomainError, CurrentActor>
}

/** A role the endpoint's rule refuses: handed to the API, which answers its 403. */
const declined = Symbol("declined")

/** A `GET <prefix>:id` endpoint of the contract, decoded and encoded with its own schemas. */
const fastRead = <Id extends number>(
  endpoint: HttpApiEndpoint.Top,
  read: (id: Id) => Effect.Effect<unknown, DomainError, CurrentActor>
): readonly [string, FastRead] => {
  const operation = Context.get(endpoint.annotations, RequiredOperation)
  const [success, ...others] = endpoint.success
  if (
    !endpoint.path.endsWith("/:id") || endpoint.params === undefined || operation === undefined ||
    success === undefined || others.length > 0
  ) {
    throw new Error(`${endpoint.path} is not a plain read by id`)
  }
  const decodeParams = Schema.decodeUnknownOption(endpoint.params as Schema.Decoder<{ readonly id: number }>)
  return [endpoint.path.slice(0, -":id".length), {
    operation,
    decodeId: (id) => Option.map(decodeParams({ id }), (params) => params.id),
    encode: Schema.encodeUnknownSync(success as Schema.Encoder<unknown>),
    read: read as (id: number) => Effect.Effect<unknown, DomainError, CurrentActor>
  }]
}

/**
 * The reads by id (`GET /session/1`, `/athletes/1`, …) answered without the API's router,
 * middlewares and schema effects, which cost a small read more CPU than the read itself (README
 * "Performance"). The answer is the API's own: the same use-case (core authenticates and
 * authorizes), the same DTO, encoded with the endpoint's success schema.
 *
 * Only the plain case is taken (see `plainRead.ts`), and only a success is answered here: every
 * other outcome (refused, unknown, malformed, unavailable, a defect) is handed to the API, which
 * runs the request again and answers it as the contract says. A read changes nothing, so running
 * it twice is invisible; it costs a second round only on the failing path.
 */
export const makeFastReads = Effect.gen(function*() {
  const auth = yield* AuthService
  const reads = yield* RecordReads
  const run = Effect.runForkWith(yield* Effect.context<never>())
  const routes = new Map([
    fastRead(ActivitiesGroup.endpoints.get, reads.activity),
    fastRead(AdminsGroup.endpoints.get, reads.admin),
    fastRead(AthletesGroup.endpoints.get, reads.athlete),
    fastRead(CoachesGroup.endpoints.get, reads.coach),
    fastRead(SessionsGroup.endpoints.get, reads.session),
    fastRead(UsersGroup.endpoints.get, reads.user)
  ])

  const answer = (route: FastRead, token: string, id: number) =>
    Effect.flatMap(auth.authenticate(token), (actor): Effect.Effect<string, DomainError | typeof declined> =>
      // As the API's role gate: the path's id names the record of an owner rule.
      isAllowed(route.operation, actor, { athleteId: id, userId: id })
        ? Effect.provideService(
          Effect.map(route.read(id), (dto) => JSON.stringify(route.encode(dto))),
          CurrentActor,
          actor
        )
        : Effect.fail(declined))

  const handler: FastReadsHandler = (request, response, fallback) => {
    const path = plainReadPath(request)
    const route = path === undefined ? undefined : routes.get(path.prefix)
    const token = plainBearerToken(request.headers.authorization)
    if (path === undefined || route === undefined || token === undefined) return false
    const id = route.decodeId(path.id)
    if (Option.isNone(id)) return false
    const requestId = request.headers["x-request-id"]
    // Its log lines name the request, as the API's do.
    const fiber = run(
      requestId === undefined
        ? answer(route, token, id.value)
        : Effect.annotateLogs(answer(route, token, id.value), "requestId", requestId)
    )
    // A caller gone away interrupts its read, as the API does.
    const onClose = () => fiber.interruptUnsafe()
    response.once("close", onClose)
    fiber.addObserver((exit) => {
      response.off("close", onClose)
      if (Exit.isSuccess(exit)) {
        return void response.writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(exit.value)
        }).end(exit.value)
      }
      if (!Cause.hasInterruptsOnly(exit.cause)) fallback()
    })
    return true
  }
  return handler
})
