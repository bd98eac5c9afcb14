import { Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { InvalidRequest } from "@club/contract/rest"
import { RawInput } from "@club/contract/rest"
import { answerBadInput } from "./badInput.ts"
import { mayCarryBody } from "./mayCarryBody.ts"

/** The parameter of `template` (`/session/:id`) whose segment holds the character at `index` of `path`; `path` for a fixed segment. */
const parameterAt = (template: string, path: string, index: number) => {
  const segment = path.slice(0, index).split("/").length - 1
  const name = template.split("/")[segment]
  return { field: name?.startsWith(":") ? name.slice(1) : "path", value: path.split("/")[segment] ?? "" }
}

const delimiterIn = (endpoint: HttpApiEndpoint.Top, path: string) => {
  const index = path.search(/[;#]/u)
  if (index === -1) return undefined
  const { field, value } = parameterAt(endpoint.path, path, index)
  return {
    field,
    message: `Expected no ";" or "#" in a path segment (they are written %3B and %23), got ${JSON.stringify(value)}`
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

const isUtf8 = (bytes: ArrayBuffer) => {
  try {
    utf8.decode(bytes)
    return true
  } catch {
    return false
  }
}

/** The endpoint's answer to input it cannot use, naming the field. */
const refuse = (endpoint: HttpApiEndpoint.Top, { field, message }: { field: string; message: string }) => {
  const detail = `${field}: ${message}`
  return answerBadInput(
    endpoint,
    detail,
    (instance) => new InvalidRequest({ detail, instance, errors: [{ field, message }] })
  )
}

const notUtf8 = { field: "body", message: "Expected JSON text in UTF-8, got bytes that are not UTF-8" }

/**
 * Reads the body once: the payload's decoder reads the same buffer afterwards. A body over the
 * limit is a defect here as in the decoder, which the BodyLimit middleware answers. One generator
 * function for every request (docs/DECISIONS.md, "No generator function made per request").
 */
const readUtf8Body = Effect.fnUntraced(function*<A, E, R>(
  request: HttpServerRequest.HttpServerRequest,
  endpoint: HttpApiEndpoint.Top,
  httpEffect: Effect.Effect<A, E, R>
) {
  const bytes = yield* Effect.orDie(request.arrayBuffer)
  if (!isUtf8(bytes)) return yield* refuse(endpoint, notUtf8)
  return yield* httpEffect
})

// A generator only where a body is read: every request passes here, most without one.
export const RawInputLive = Layer.succeed(
  RawInput,
  (httpEffect, { endpoint }) =>
    Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
      const issue = delimiterIn(endpoint, request.url.split("?")[0]!)
      if (issue !== undefined) return refuse(endpoint, issue)
      return mayCarryBody(request) ? readUtf8Body(request, endpoint, httpEffect) : httpEffect
    })
)
