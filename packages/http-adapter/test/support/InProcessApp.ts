import { IdempotentRequests, Readiness, UseCasesLive, UserService } from "@club/core"
import {
  InMemoryPasswordHasher,
  InMemoryRepositories,
  InMemoryStore,
  type InMemoryTables,
  InMemoryTokenSigner
} from "@club/core/testing"
import { Context, Effect, Layer, Redacted } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { readReply, type Reply } from "@club/test-support"
import { firstAdmin, type RequestOptions as ClubRequestOptions } from "@club/test-support/rest"
import { RestApiLive } from "../../src/index.ts"

export type { Reply } from "@club/test-support"

/** What a request to the app carries: what a client sends over the wire, and what only a `Request` built here can. */
export interface RequestOptions extends ClubRequestOptions {
  /**
   * Whether a body comes with its `content-length`, as HTTP/1.1 clients send it (the default); false
   * sends it without, as an HTTP/2 client may.
   */
  readonly announceLength?: boolean
}

export type Send = (method: string, path: string, options?: RequestOptions) => Promise<Reply>

/** What a test may put in place of the in-memory parts; the use-cases and the REST app stay real. */
export interface InProcessAppOptions {
  /**
   * Ports laid over core's in-memory ones, for a case those cannot produce: a store that cannot be
   * reached, say.
   */
  // oxlint-disable-next-line no-explicit-any -- any of core's ports, whichever a test replaces
  readonly ports?: Layer.Layer<any>
  readonly readiness?: Layer.Layer<Readiness>
  /**
   * Given the app's in-memory tables once they are built, for a test that writes what no endpoint
   * writes yet (issue 41's groups and memberships).
   */
  readonly store?: (tables: InMemoryTables) => void
}

const InMemoryPorts = Layer.mergeAll(InMemoryRepositories, InMemoryPasswordHasher, InMemoryTokenSigner)

/** Core's use-cases, IdempotentRequests included, on the ports (given too, for `CalendarFeedService`), with a first admin. */
const useCasesOn = <Ports>(ports: Layer.Layer<Ports>, store?: (tables: InMemoryTables) => void) => {
  const handedOver = Layer.effectDiscard(Effect.map(Effect.service(InMemoryStore), (tables) => store?.(tables)))
  const useCases = Layer.mergeAll(UseCasesLive, IdempotentRequests.layer, handedOver).pipe(Layer.provideMerge(ports))
  const withFirstAdmin = Layer.effectDiscard(
    UserService.use((users) => users.ensureFirstAdmin(firstAdmin.name, Redacted.make(firstAdmin.password)))
  )
  return withFirstAdmin.pipe(Layer.provideMerge(useCases))
}

const Ready = Layer.succeed(Readiness)({ check: Effect.succeed(true) })

/** The router's settings the server uses (apps/server `routerConfig`): exact-case paths, long parameters. */
const routerConfig = { maxParamLength: 2_400, caseSensitive: true }

/**
 * http-adapter's whole REST app (`RestApiLive`) as a web handler, in this process, on core's real
 * use-cases over its in-memory ports: requests go through the same router, middleware and handlers
 * as on the server, without a listener. Call `dispose` when done.
 */
export const makeInProcessApp = (options: InProcessAppOptions = {}) => {
  // The later of two layers giving one service wins: a test's ports replace the in-memory ones.
  const ports = options.ports === undefined ? InMemoryPorts : Layer.merge(InMemoryPorts, options.ports)
  const app = RestApiLive.pipe(
    Layer.provide(options.readiness ?? Ready),
    Layer.provide(useCasesOn(ports, options.store)),
    // The platform's services for tests: what serving a file would need (nothing here does).
    Layer.provide(HttpServer.layerServices)
  )
  const { dispose, handler } = HttpRouter.toWebHandler(app, { disableLogger: true, routerConfig })
  const send: Send = async (method, path, request = {}) => {
    const headers: Record<string, string> = {}
    if (request.token !== undefined && request.token !== null) headers["authorization"] = `Bearer ${request.token}`
    const body = request.body ?? (request.json === undefined ? undefined : JSON.stringify(request.json))
    if (body !== undefined) {
      headers["content-type"] = "application/json"
      // A `Request` built here has none; an HTTP/1.1 client always sends it.
      if (request.announceLength !== false) {
        headers["content-length"] = String(
          typeof body === "string" ? new TextEncoder().encode(body).length : body.length
        )
      }
    }
    Object.assign(headers, request.headers)
    const response = await handler(
      new Request(`http://club.test${path}`, { method, headers, ...(body === undefined ? {} : { body }) }),
      Context.empty()
    )
    return readReply(method, path, response)
  }
  return { send, dispose }
}
