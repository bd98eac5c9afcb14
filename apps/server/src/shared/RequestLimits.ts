import { ByteSize, Layer } from "effect"
import { HttpIncomingMessage } from "effect/http"

/** CONTRACT.md: a request body of at most 1 MiB; a larger one is answered 413. */
export const maxRequestBody = ByteSize.mebibytes(1)

export const RequestLimits: Layer.Layer<never> = Layer.succeed(HttpIncomingMessage.MaxBodySize, maxRequestBody)
