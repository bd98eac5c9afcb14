import { Effect, Layer } from "effect"
import { HttpServerError, HttpServerRequest } from "effect/http"
import { BodyLimit } from "@club/contract/rest"
import { ContentTooLarge } from "@club/contract/rest"

const isBodyTooLarge = (defect: unknown) =>
  HttpServerError.isHttpServerError(defect) &&
  defect.reason._tag === "RequestParseError" &&
  defect.reason.reason === "BodyTooLarge"

/** Reading an oversized body is a defect inside the framework; here it becomes the caller's 413. */
export const BodyLimitLive = Layer.succeed(
  BodyLimit,
  (httpEffect) =>
    Effect.catchDefect(httpEffect, (defect) =>
      isBodyTooLarge(defect)
        ? Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) =>
          Effect.fail(
            new ContentTooLarge({
              detail: "The request body is larger than 1 MiB",
              instance: request.url.split("?")[0]!
            })
          ))
        : Effect.die(defect))
)
