import {
  Code,
  ConnectError,
  type ConnectRouter,
  type ConnectRouterOptions,
  type ContextValues,
  createConnectRouter
} from "@connectrpc/connect"
import { universalRequestFromNodeRequest, universalResponseToNodeResponse } from "@connectrpc/connect-node"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"
import type { BodyRead } from "./readBodyUpTo.ts"

/** The body already read, then the rest of the request if it had not ended. */
async function* replay(request: IncomingMessage | Http2ServerRequest, read: BodyRead): AsyncGenerator<Uint8Array> {
  const rest: AsyncIterator<Uint8Array> | undefined = read.complete ? undefined : request[Symbol.asyncIterator]()
  try {
    for (const chunk of read.chunks) yield chunk
    if (rest !== undefined) {
      for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield next.value
    }
  } finally {
    // Stopped early (an oversize or malformed message refused): the request is destroyed, as
    // connect-node's own reader of the body does when it stops.
    await rest?.return?.()
  }
}

/**
 * connect-node's own handling of a call whose body the fast path has begun to read, as
 * `connectNodeAdapter` does it (its documented `universalRequestFromNodeRequest` and
 * `universalResponseToNodeResponse`), on a router built with the same options and routes, with the
 * bytes already read put back in front of the body.
 */
export const makeHandOver = (
  options: ConnectRouterOptions,
  routes: (router: ConnectRouter) => void,
  contextValues: ((request: IncomingMessage | Http2ServerRequest) => ContextValues) | undefined
) => {
  const router = createConnectRouter(options)
  routes(router)
  const handlers = new Map(router.handlers.map((handler) => [handler.requestPath, handler]))
  return (
    request: IncomingMessage | Http2ServerRequest,
    response: ServerResponse | Http2ServerResponse,
    read: BodyRead
  ): void => {
    const handler = handlers.get(request.url ?? "")
    if (handler === undefined) throw new Error(`no handler for ${request.url}`)
    const universal = universalRequestFromNodeRequest(request, response, undefined, contextValues?.(request))
    handler({ ...universal, body: replay(request, read) })
      .then((answer) => universalResponseToNodeResponse(answer, response))
      .catch((reason: unknown) => {
        if (ConnectError.from(reason).code === Code.Aborted) return
        // As connectNodeAdapter reports a handler that failed to answer.
        console.error(`handler for rpc ${handler.method.name} of ${handler.service.typeName} failed`, reason)
      })
  }
}
