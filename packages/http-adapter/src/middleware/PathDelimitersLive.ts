import { Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import { PathDelimiters } from "../contract/PathDelimiters.ts"
import { InvalidRequest } from "../contract/Problems.ts"
import { answerBadInput } from "./badInput.ts"

/** The parameter of `template` (`/session/:id`) whose segment holds the character at `index` of `path`; `path` for a fixed segment. */
const parameterAt = (template: string, path: string, index: number) => {
  const segment = path.slice(0, index).split("/").length - 1
  const name = template.split("/")[segment]
  return { field: name?.startsWith(":") ? name.slice(1) : "path", value: path.split("/")[segment] ?? "" }
}

export const PathDelimitersLive = Layer.succeed(PathDelimiters, (httpEffect, { endpoint }) =>
  Effect.gen(function*() {
    const path = (yield* HttpServerRequest.HttpServerRequest).url.split("?")[0]!
    const index = path.search(/[;#]/u)
    if (index === -1) return yield* httpEffect
    const { field, value } = parameterAt(endpoint.path, path, index)
    const message = `Expected no ";" or "#" in a path segment (they are written %3B and %23), got ${JSON.stringify(value)}`
    const detail = `${field}: ${message}`
    return yield* answerBadInput(endpoint, detail, (instance) => new InvalidRequest({ detail, instance, errors: [{ field, message }] }))
  }))
