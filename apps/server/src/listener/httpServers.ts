import * as Http from "node:http"
import * as Http2 from "node:http2"
import type * as Net from "node:net"
import { answerClientError } from "./clientErrors.ts"
import type { Connections } from "./Connections.ts"
import type { NodeRequestHandler } from "./NodeHandler.ts"
import type { ServingLimits } from "./ServingLimits.ts"

/** Node checks its HTTP/1.1 header and request timeouts this often: a timeout fires at most this late. */
const timeoutCheckIntervalMs = (limits: ServingLimits) =>
  Math.max(100, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 2)))

/**
 * The HTTP/1.1 server, with the limits' timeouts. It never listens itself: the sniffing server
 * hands it its connections.
 */
export const makeHttp1Server = (
  limits: ServingLimits,
  connections: Connections,
  onRequest: NodeRequestHandler
): Http.Server => {
  const server = Http.createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.idleTimeoutMs,
    connectionsCheckingInterval: timeoutCheckIntervalMs(limits)
  }, onRequest)
  // Node arms its header and request timeouts (and idle-connection tracking) on `listening`;
  // this server never listens itself, as connections reach it from the `net` server.
  server.emit("listening")
  // An idle kept-alive connection reaching the idle timeout is closed gently too, not destroyed.
  server.on("timeout", (socket: Net.Socket) => connections.closeGently(socket))
  server.on(
    "clientError",
    answerClientError(
      (socket) => (connections.get(socket) === undefined ? socket.destroy() : connections.closeGently(socket)),
      (socket) => Array.from(connections.get(socket)?.exchanges ?? []).some(({ response }) => response.headersSent)
    )
  )
  return server
}

/** The HTTP/2 cleartext server, advertising the limits' streams per session. */
export const makeHttp2Server = (limits: ServingLimits, onRequest: NodeRequestHandler): Http2.Http2Server =>
  Http2.createServer({ settings: { maxConcurrentStreams: limits.maxStreamsPerSession } }, onRequest)
