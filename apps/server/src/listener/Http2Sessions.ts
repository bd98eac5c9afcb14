import * as Http2 from "node:http2"
import { Admission } from "./Admission.ts"
import type { SessionHandle } from "./Connections.ts"
import type { ServingLimits } from "./ServingLimits.ts"

/**
 * An HTTP/2 answer complete before its request (an oversize message refused at once): how much
 * more of the request is read and discarded, and for how long, before the stream is reset with
 * NO_ERROR (RFC 9113, section 8.1). Reading the rest lets the client finish sending: Node's
 * HTTP/2 client does not release the session memory it counted for data it never got to send,
 * and refuses every new stream of a session after about 10 MiB of it.
 */
const drainMaxBytes = 8 * 1024 * 1024
const drainTimeoutMs = 10_000

/** Once an HTTP/2 response is complete, the rest of an unread request is read and discarded (see `drainMaxBytes`). */
const drainUnreadRequest = (stream: Http2.ServerHttp2Stream) =>
  stream.once("finish", () => {
    if (stream.closed || stream.destroyed || stream.readableEnded) return
    let drained = 0
    const stop = () => {
      if (!stream.closed && !stream.destroyed) stream.close(Http2.constants.NGHTTP2_NO_ERROR)
    }
    const timer = setTimeout(stop, drainTimeoutMs)
    timer.unref()
    stream.once("close", () => clearTimeout(timer))
    // The request object has given up on the body (it may be destroyed): read the stream itself.
    stream.removeAllListeners("data")
    stream.on("data", (chunk: Buffer) => {
      drained += chunk.length
      if (drained > drainMaxBytes) stop()
    })
    stream.resume()
  })

const gone = (stream: Http2.ServerHttp2Stream) => stream.closed || stream.destroyed

/** Whether the client is still sending the request: no END_STREAM yet (read or not). */
const receiving = (stream: Http2.ServerHttp2Stream) =>
  !gone(stream) && !stream.endAfterHeaders && stream.state.remoteClose !== 1

/** Whether the request has arrived and the stream is being answered. */
const beingServed = (stream: Http2.ServerHttp2Stream) => !gone(stream) && !receiving(stream)

interface OpenStream {
  readonly stream: Http2.ServerHttp2Stream
  readonly evictionRank: () => number | undefined
  readonly evict: () => void
}

interface Session extends SessionHandle {
  readonly streams: Set<OpenStream>
  idleTimer: NodeJS.Timeout | undefined
  answered: boolean
}

const cancel = (stream: Http2.ServerHttp2Stream) => {
  if (!gone(stream)) stream.close(Http2.constants.NGHTTP2_CANCEL)
}

/**
 * The HTTP/2 sessions and their streams: each session is closed (GOAWAY) once it has had no stream
 * for `idleTimeoutMs`; each stream must have received its whole request within `requestTimeoutMs`
 * (else it is cancelled); and the streams open across all sessions are bounded by `maxStreams`: at
 * the limit a new stream takes the place of the oldest one still waiting for its request, and while
 * every stream is being served a new one is refused (REFUSED_STREAM, which a client may retry).
 */
export class Http2Sessions {
  private readonly sessions = new Map<Http2.ServerHttp2Session, Session>()
  private readonly streams: Admission<OpenStream>

  constructor(private readonly limits: ServingLimits) {
    // Streams stalled for a second go before younger ones, which go oldest first.
    this.streams = new Admission({ capacity: limits.maxStreams, unsettledRank: 1 })
  }

  /** Starts watching a new session; answers what the connection table needs to know of it. */
  register(session: Http2.ServerHttp2Session): SessionHandle {
    const state: Session = {
      streams: new Set(),
      idleTimer: undefined,
      answered: false,
      served: () => state.answered,
      working: () => Array.from(state.streams).some((open) => beingServed(open.stream)),
      stalled: () => state.streams.size > 0,
      // Making room for a new connection: an idle session says GOAWAY; one whose streams all stall is cut.
      evict: () => (state.streams.size === 0 ? session.close() : session.destroy())
    }
    this.sessions.set(session, state)
    this.armIdleTimer(session, state)
    session.once("close", () => {
      clearTimeout(state.idleTimer)
      this.sessions.delete(session)
    })
    return state
  }

  /** Every open session; shutdown says GOAWAY to each. */
  all(): IterableIterator<Http2.ServerHttp2Session> {
    return this.sessions.keys()
  }

  /** Admits a new stream (a request): false when it was refused and must not be served. */
  admit(stream: Http2.ServerHttp2Stream): boolean {
    const session = stream.session as Http2.ServerHttp2Session
    const state = this.sessions.get(session)
    const open: OpenStream = {
      stream,
      // Only streams still waiting for their request (or already closing) make room, the oldest first.
      evictionRank: () => (beingServed(stream) ? undefined : 0),
      evict: () => cancel(stream)
    }
    if (!this.streams.admit(open)) {
      stream.close(Http2.constants.NGHTTP2_REFUSED_STREAM)
      return false
    }
    const deadline = setTimeout(() => {
      if (receiving(stream)) cancel(stream)
    }, this.limits.requestTimeoutMs)
    deadline.unref()
    if (state !== undefined) {
      clearTimeout(state.idleTimer)
      state.streams.add(open)
      stream.once("finish", () => (state.answered = true))
    }
    stream.once("close", () => {
      clearTimeout(deadline)
      this.streams.release(open)
      if (state !== undefined) {
        state.streams.delete(open)
        if (state.streams.size === 0) this.armIdleTimer(session, state)
      }
    })
    drainUnreadRequest(stream)
    return true
  }

  private armIdleTimer(session: Http2.ServerHttp2Session, state: Session) {
    clearTimeout(state.idleTimer)
    state.idleTimer = setTimeout(() => {
      if (state.streams.size === 0 && !session.closed && !session.destroyed) session.close()
    }, this.limits.idleTimeoutMs)
    state.idleTimer.unref()
  }
}
