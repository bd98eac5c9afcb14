import { readdirSync } from "node:fs"
import * as Http2 from "node:http2"
import * as Net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { recordResult } from "../reliability/support/results.ts"
import { http1, sleep } from "../support/requests.ts"
import { type ServerProcess, startServer } from "@club/test-support"

/** Small limits, so that a flood of a few hundred connections is over them; loopback only. */
const limits = {
  MAX_CONNECTIONS: "60",
  MAX_HTTP2_STREAMS: "150",
  IDLE_TIMEOUT_MS: "1000",
  HEADERS_TIMEOUT_MS: "1000",
  REQUEST_TIMEOUT_MS: "2000"
}

/** How much later than its timeout the server may act: Node checks HTTP/1.1 timeouts on an interval. */
const slackMs = 1_500

const openFds = (server: ServerProcess) => readdirSync(`/proc/${server.child.pid}/fd`).length

/** A raw connection, with the moment it was closed by the server and the bytes it received. */
const rawConnection = (port: number, send?: string) => {
  const socket = Net.connect(port, "127.0.0.1")
  const state = { received: "", closedAt: undefined as number | undefined, openedAt: Date.now() }
  socket.setEncoding("latin1")
  socket.on("connect", () => send !== undefined && socket.write(send))
  socket.on("data", (chunk: string) => (state.received += chunk))
  socket.on("error", () => undefined)
  socket.on("close", () => (state.closedAt = Date.now()))
  return Object.assign(state, { socket })
}

const h2Session = (port: number) => {
  const session = Http2.connect(`http://127.0.0.1:${port}`)
  session.on("error", () => undefined)
  const state = { closedAt: undefined as number | undefined, goaway: false, openedAt: Date.now() }
  session.on("goaway", () => (state.goaway = true))
  session.on("close", () => (state.closedAt = Date.now()))
  return Object.assign(state, { session })
}

/** A request whose body never comes: headers and 5 bytes of 100. */
const stalledStream = (session: Http2.ClientHttp2Session) => {
  const stream = session.request(
    { ":method": "POST", ":path": "/todo.TodoService/ListTasks", "content-type": "application/grpc", te: "trailers" },
    { endStream: false }
  )
  const state = { closedAt: undefined as number | undefined, rstCode: undefined as number | undefined }
  stream.on("error", () => undefined)
  stream.on("close", () => {
    state.closedAt = Date.now()
    state.rstCode = stream.rstCode
  })
  stream.write(Buffer.from([0, 0, 0, 0, 100, 1, 2, 3, 4, 5]))
  return state
}

const h2Get = (session: Http2.ClientHttp2Session, path: string) =>
  new Promise<number>((resolve, reject) => {
    const stream = session.request({ ":method": "GET", ":path": path })
    stream.on("response", (headers) => resolve(Number(headers[":status"])))
    stream.on("error", reject)
    stream.resume()
  })

const waitFor = async (check: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (!check() && Date.now() < deadline) await sleep(25)
  return check()
}

describe("connections, streams and timeouts are bounded", { timeout: 120_000 }, () => {
  let server: ServerProcess
  let defaults: ServerProcess
  beforeAll(async () => {
    ;[server, defaults] = await Promise.all([
      startServer({ DATA_DIR: "memory://", ...limits }),
      startServer({ DATA_DIR: "memory://" })
    ])
  })
  afterAll(() => Promise.all([server?.stop(), defaults?.stop()]))

  it("advertises at most 100 concurrent streams per HTTP/2 session by default", async () => {
    const { session } = h2Session(defaults.port)
    const settings = await new Promise<Http2.Settings>((resolve) => session.once("remoteSettings", resolve))
    session.close()
    expect(settings.maxConcurrentStreams).toBe(100)
  })

  it("closes an HTTP/2 session that has no stream for IDLE_TIMEOUT_MS, with GOAWAY", async () => {
    const idle = h2Session(server.port)
    expect(await h2Get(idle.session, "/health/live")).toBe(200)
    const answeredAt = Date.now()
    expect(await waitFor(() => idle.closedAt !== undefined, 1_000 + slackMs + 1_000)).toBe(true)
    expect(idle.goaway).toBe(true)
    expect(idle.closedAt! - answeredAt).toBeGreaterThanOrEqual(900)
  })

  it("closes a kept-alive HTTP/1.1 connection idle for IDLE_TIMEOUT_MS", async () => {
    const kept = rawConnection(server.port, "GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n")
    expect(await waitFor(() => kept.received.startsWith("HTTP/1.1 200"), 2_000)).toBe(true)
    expect(await waitFor(() => kept.closedAt !== undefined, 1_000 + slackMs + 1_000)).toBe(true)
  })

  it("closes a connection that sends nothing, or only part of its headers, within HEADERS_TIMEOUT_MS", async () => {
    const silent = rawConnection(server.port)
    const partial = rawConnection(server.port, "GET /health/live HTTP/1.1\r\nHost: x\r\n")
    expect(
      await waitFor(() => silent.closedAt !== undefined && partial.closedAt !== undefined, 1_000 + slackMs + 1_000)
    )
      .toBe(true)
    expect(silent.closedAt! - silent.openedAt).toBeGreaterThanOrEqual(900)
  })

  it("answers 408 to an HTTP/1.1 request whose body stalls, after REQUEST_TIMEOUT_MS, and closes it", async () => {
    const stalled = rawConnection(
      server.port,
      "POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\":"
    )
    expect(await waitFor(() => stalled.closedAt !== undefined, 2_000 + slackMs + 1_000)).toBe(true)
    expect(stalled.received).toMatch(/^HTTP\/1\.1 408 /)
    expect(stalled.closedAt! - stalled.openedAt).toBeGreaterThanOrEqual(1_900)
  })

  it("cancels an HTTP/2 stream whose body stalls, after REQUEST_TIMEOUT_MS", async () => {
    const { session } = h2Session(server.port)
    const stream = stalledStream(session)
    const openedAt = Date.now()
    expect(await waitFor(() => stream.closedAt !== undefined, 2_000 + slackMs)).toBe(true)
    expect(stream.rstCode).toBe(Http2.constants.NGHTTP2_CANCEL)
    expect(stream.closedAt! - openedAt).toBeGreaterThanOrEqual(1_900)
    session.close()
  })

  it("keeps answering a normal client while it is flooded with idle connections and stalled streams", async () => {
    const flood = {
      connections: [] as Array<ReturnType<typeof rawConnection>>,
      sessions: [] as Array<ReturnType<typeof h2Session>>
    }
    let flooding = true
    // Every 50 ms: 10 silent connections, 5 with half a request line, and an HTTP/2 session with 20 stalled streams.
    const floodLoop = (async () => {
      while (flooding) {
        for (let i = 0; i < 10; i++) flood.connections.push(rawConnection(server.port))
        for (let i = 0; i < 5; i++) flood.connections.push(rawConnection(server.port, "GET /health/li"))
        const h2 = h2Session(server.port)
        for (let i = 0; i < 20; i++) stalledStream(h2.session)
        flood.sessions.push(h2)
        await sleep(50)
      }
    })()
    await sleep(500)
    const answers: Array<number> = []
    const latencies: Array<number> = []
    let mostFds = 0
    // A client that sends at once, as clients do (an HTTP/2 session held open without a stream is idle).
    const normal = h2Session(server.port)
    answers.push(await h2Get(normal.session, "/health/live").catch(() => 0))
    for (let i = 0; i < 20; i++) {
      // A fresh HTTP/1.1 connection, and a new stream on a kept HTTP/2 session.
      const started = performance.now()
      answers.push((await http1(server.port, "/health/ready")).status)
      answers.push(await h2Get(normal.session, "/health/live").catch(() => 0))
      latencies.push(performance.now() - started)
      mostFds = Math.max(mostFds, openFds(server))
      await sleep(50)
    }
    flooding = false
    await floodLoop
    const opened = flood.connections.length + flood.sessions.length
    for (const { socket } of flood.connections) socket.destroy()
    for (const { session } of flood.sessions) session.destroy()
    normal.session.close()

    recordResult("connection-flood", {
      limits,
      floodConnections: opened,
      floodStalledStreams: flood.sessions.length * 20,
      normalAnswers: answers.length,
      normalAnswered200: answers.filter((status) => status === 200).length,
      normalPairMsMax: Math.round(Math.max(...latencies)),
      mostOpenDescriptors: mostFds
    })
    expect(opened).toBeGreaterThan(5 * Number(limits.MAX_CONNECTIONS))
    expect(answers).toEqual(Array.from({ length: 41 }, () => 200))
    // The process's descriptors stay near MAX_CONNECTIONS: the database, the listener, and connections being closed.
    expect(mostFds).toBeLessThan(Number(limits.MAX_CONNECTIONS) + 60)
    // And it still serves after the flood.
    expect((await http1(server.port, "/health/ready")).status).toBe(200)
  })
})
