import { Effect } from "effect"
import type * as Http from "node:http"
import type * as Http2 from "node:http2"
import type * as Net from "node:net"
import type { Connections } from "./Connections.ts"
import type { Drain } from "./Drain.ts"
import type { Http2Sessions } from "./Http2Sessions.ts"
import type { NodeRequestHandler } from "./NodeHandler.ts"
import { assignRequestId } from "./requestId.ts"
import { setSecurityHeaders } from "./securityHeaders.ts"

/**
 * The `request` listener of both node servers: admits the request (or leaves it unanswered on a
 * connection the server is closing), tracks it until its answer closes, gives it its security
 * headers and its request id, and hands it to `dispatch`. A handler that throws is answered 500
 * and logged (through `runLog`), instead of taking the process down.
 */
export const makeRequestListener = (parts: {
  readonly connections: Connections
  readonly sessions: Http2Sessions
  readonly drain: Drain
  readonly dispatch: NodeRequestHandler
  readonly runLog: (log: Effect.Effect<void>) => unknown
}): NodeRequestHandler => {
  const { connections, dispatch, drain, sessions } = parts
  return (request, response) => {
    const socket = request.httpVersionMajor === 1 ? request.socket as Net.Socket : undefined
    const connection = socket === undefined ? undefined : connections.get(socket)
    if (connection?.refusing === true) {
      // Sent after the server decided to close this connection (it answered `Connection: close`, or
      // closed it idle): not served, so the client sees the connection end without an answer and
      // knows the request was not processed. The body is read and discarded.
      request.resume()
      return
    }
    if (request.httpVersionMajor === 2 && !sessions.admit((response as Http2.Http2ServerResponse).stream)) return
    drain.inFlight++
    const done = () => {
      drain.inFlight--
      if (connection !== undefined && drain.graceOver && connection.exchanges.size === 0) {
        connections.closeGently(socket!)
      }
    }
    if (connection !== undefined) {
      connections.track(connection, request as Http.IncomingMessage, response as Http.ServerResponse, done)
    } else {
      response.once("close", done)
    }
    setSecurityHeaders(response)
    const requestId = assignRequestId(request, response)
    if (drain.closing && connection !== undefined) {
      // The last request this connection gets answered; Node then closes it (gently: see sniffingServer.ts).
      connection.refusing = true
      response.setHeader("connection", "close")
    }
    try {
      dispatch(request, response)
    } catch (error) {
      parts.runLog(Effect.logError("A request handler threw", error).pipe(Effect.annotateLogs("requestId", requestId)))
      if (!response.headersSent) response.statusCode = 500
      response.end()
    }
  }
}
