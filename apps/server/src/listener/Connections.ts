import type * as Http from "node:http"
import type * as Net from "node:net"
import { Admission } from "./Admission.ts"

/**
 * After the server has closed its side of a connection, how long it still reads (and discards)
 * what the client sends, waiting for the client to close its side. Closing both sides at once
 * while a request is arriving makes the kernel answer with a reset (RFC 9112, section 9.6).
 */
const lingerMs = 2_000

/** An HTTP/1.1 request handed to a handler, until its response closes. */
interface Exchange {
  readonly request: Http.IncomingMessage
  readonly response: Http.ServerResponse
}

/** An HTTP/2 session as the connection table sees it (see Http2Sessions). */
export interface SessionHandle {
  /** Whether one of its streams is being served (its request has arrived, or its answer has begun). */
  readonly working: () => boolean
  /** Whether it has streams, all of them still waiting for their requests. */
  readonly stalled: () => boolean
  /** Whether it has answered a request. */
  readonly served: () => boolean
  readonly evict: () => void
}

/** What the listener knows of one accepted connection. */
export interface Connection {
  readonly socket: Net.Socket
  protocol: "detecting" | "http/1.1" | "h2c"
  /** HTTP/1.1 requests handed to a handler whose response has not closed yet. */
  readonly exchanges: Set<Exchange>
  /** HTTP/1.1: has answered a request; closed gently when it must make room, since its client may be sending the next one. */
  served: boolean
  session: SessionHandle | undefined
  /** HTTP/1.1: the server closes this connection; requests that still arrive on it are not served. */
  refusing: boolean
  /** The server has closed its side and waits for the client's. */
  lingering: boolean
  readonly evictionRank: () => number | undefined
  readonly evict: () => void
}

/** Still receiving its request (headers done, body not all there) with nothing answered yet: a stalled client looks so. */
const receiving = ({ request, response }: Exchange) => !request.complete && !response.headersSent

/**
 * Which connections make room first (see Admission): one that has not sent a byte; then one that
 * sent part of a request and nothing more, or a request and then stalled; then an idle one that
 * has been served, whose client is most likely to come back.
 */
const silentRank = 0
const stalledRank = 1
const servedRank = 3
/** A connection younger than a second ranks after every settled silent or stalled one, and before the served ones. */
const unsettledRank = 2

const evictionRankOf = (connection: Connection): number | undefined => {
  switch (connection.protocol) {
    case "detecting":
      return silentRank
    case "http/1.1": {
      if (!Array.from(connection.exchanges).every(receiving)) return undefined
      return connection.served && connection.exchanges.size === 0 ? servedRank : stalledRank
    }
    case "h2c": {
      const session = connection.session
      if (session === undefined) return silentRank
      if (session.working()) return undefined
      return session.served() && !session.stalled() ? servedRank : stalledRank
    }
  }
}

/**
 * The accepted connections, bounded by `maxConnections`: at the limit a new connection takes the
 * place of the oldest one that is idle, still silent, or still receiving its request (see
 * Admission); while every connection is being served, a new one is refused. It also closes
 * connections the gentle way, which shutdown, idle timeouts and making room all use.
 */
export class Connections {
  private readonly table = new Map<Net.Socket, Connection>()
  private readonly admission: Admission<Connection>
  /** Called, while shutting down, when the last connection has closed. */
  onAllClosed: (() => void) | undefined

  constructor(maxConnections: number) {
    this.admission = new Admission({ capacity: maxConnections, unsettledRank })
  }

  get size(): number {
    return this.table.size
  }

  get(socket: Net.Socket): Connection | undefined {
    return this.table.get(socket)
  }

  sockets(): IterableIterator<Net.Socket> {
    return this.table.keys()
  }

  values(): IterableIterator<Connection> {
    return this.table.values()
  }

  /** Registers a new connection, or destroys it and answers undefined when every place is taken by one being served. */
  accept(socket: Net.Socket): Connection | undefined {
    const connection: Connection = {
      socket,
      protocol: "detecting",
      exchanges: new Set(),
      served: false,
      session: undefined,
      refusing: false,
      lingering: false,
      evictionRank: () => evictionRankOf(connection),
      evict: () => this.evict(connection)
    }
    if (!this.admission.admit(connection)) {
      socket.destroy()
      return undefined
    }
    this.table.set(socket, connection)
    socket.once("close", () => {
      this.table.delete(socket)
      this.admission.release(connection)
      if (this.table.size === 0) this.onAllClosed?.()
    })
    return connection
  }

  /** Tracks an HTTP/1.1 request until its response closes; `onDone` runs then. */
  track(connection: Connection, request: Http.IncomingMessage, response: Http.ServerResponse, onDone: () => void) {
    const exchange = { request, response }
    connection.exchanges.add(exchange)
    response.once("finish", () => (connection.served = true))
    response.once("close", () => {
      connection.exchanges.delete(exchange)
      onDone()
    })
  }

  /**
   * Closes the server's side of a connection, then reads on until the client closes its side
   * (Node then closes the socket), or `lingerMs` pass: a request arriving meanwhile is not
   * served (`refusing`) and meets the end of the connection, not a reset. A lingering connection
   * no longer counts against the limit.
   */
  closeGently(socket: Net.Socket): void {
    const connection = this.table.get(socket)
    if (connection === undefined || connection.lingering || socket.destroyed) return
    connection.refusing = true
    connection.lingering = true
    this.admission.release(connection)
    socket.end()
    const timer = setTimeout(() => socket.destroy(), lingerMs)
    timer.unref()
    socket.once("close", () => clearTimeout(timer))
  }

  /** Makes room: a connection that has served its client is closed gently, a silent or stalled one at once. */
  private evict(connection: Connection): void {
    if (connection.protocol === "h2c" && connection.session !== undefined) return connection.session.evict()
    if (connection.served && connection.exchanges.size === 0) return this.closeGently(connection.socket)
    connection.socket.destroy()
  }

  /** Cuts every connection at once (the end of a shutdown that ran out of time). */
  destroyAll(): void {
    for (const socket of this.table.keys()) socket.destroy()
  }
}
