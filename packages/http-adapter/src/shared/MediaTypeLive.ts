import { Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import { MediaType } from "@club/contract/rest"
import { UnsupportedMediaType } from "@club/contract/rest"
import { answerBadInput } from "./badInput.ts"

/** The framework answers a body of another media type with a bare 415 before any handler runs. */
const isUnsupportedMediaType = (status: number) => status === 415

/** That bare 415 becomes the endpoint's answer to bad input, naming what was sent and what is expected. */
export const MediaTypeLive = Layer.succeed(
  MediaType,
  (httpEffect, { endpoint }) =>
    Effect.flatMap(httpEffect, (response) =>
      isUnsupportedMediaType(response.status)
        ? Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
          const detail = `body: Expected content-type application/json, got ${
            request.headers["content-type"] ?? "none"
          }`
          return answerBadInput(endpoint, detail, (instance) => new UnsupportedMediaType({ detail, instance }))
        })
        : Effect.succeed(response))
)
