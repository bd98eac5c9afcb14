import type * as Http from "node:http"
import type * as Http2 from "node:http2"
import * as Net from "node:net"
import type { Connection, Connections } from "./Connections.ts"
import type { Drain } from "./Drain.ts"
import type { Http2Sessions } from "./Http2Sessions.ts"
import { detectProtocol } from "./http2Preface.ts"
import type { ServingLimits } from "./ServingLimits.ts"

/**
 * One port for HTTP/1.1 and HTTP/2 cleartext: a `net` server looks at the first bytes of each
 * connection and hands it to `http1` or `http2`, because `http2.createServer({ allowHTTP1: true })`
 * only falls back to HTTP/1.1 over TLS. Every connection is accepted into `connections` first
 * (which may refuse it, or make room for it).
 */
export const makeSniffingServer = (parts: {
  readonly limits: ServingLimits
  readonly connections: Connections
  readonly sessions: Http2Sessions
  readonly drain: Drain
  readonly http1: Http.Server
  readonly http2: Http2.Http2Server
}): Net.Server => {
  const { connections, drain, http1, http2, sessions } = parts
  // The connection being handed to the HTTP/2 server, whose `session` event names no socket of ours.
  let handingOver: Connection | undefined
  http2.on("session", (session) => {
    if (drain.closing) return session.close()
    const handle = sessions.register(session)
    if (handingOver !== undefined) handingOver.session = handle
  })

  return Net.createServer({ noDelay: true }, (socket) => {
    // Errors after the hand-over are handled by the http servers; this one covers detection.
    socket.on("error", () => undefined)
    // Accepted while shutting down too (see Drain): served like any other, with `Connection: close`.
    const connection = connections.accept(socket)
    if (connection === undefined) return
    if (drain.graceOver) connections.closeGently(socket)
    detectProtocol(socket, (protocol) => {
      connection.protocol = protocol
      if (protocol === "h2c") {
        if (connection.lingering) {
          // Closed while silent: what it sends now is read and discarded until it closes too.
          socket.on("data", () => undefined)
          return void socket.resume()
        }
        handingOver = connection
        http2.emit("connection", socket)
        handingOver = undefined
        return
      }
      // Node ends a connection after an answer with `Connection: close` by `destroySoon`: closing both
      // sides at once, which resets a request the client sent meanwhile. Close it gently instead.
      socket.destroySoon = () => connections.closeGently(socket)
      http1.emit("connection", socket)
      // The http parser reads what detection put back only once the socket flows again;
      // the http2 session takes the buffered bytes itself and must not be resumed.
      socket.resume()
    }, { timeoutMs: parts.limits.headersTimeoutMs })
  })
}
