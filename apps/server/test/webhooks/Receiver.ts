import { createHmac, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll } from "vitest"

/** An event as a webhook receives it. */
export interface Received {
  readonly eventId: number
  readonly timestamp: number
  readonly signature: string
  readonly body: string
  /** Every header as received (the Standard Webhooks ones among them), for a verifying library. */
  readonly headers: Record<string, string>
  readonly event: { id: number; type: string; sessionId: number; occurredAt: string; data: Record<string, unknown> }
  readonly at: number
}

/** How the receiver answers the next requests. */
export type Mode = "ok" | "fail" | "hang" | "slow" | "redirect"

/**
 * A webhook receiver in the test's process: it keeps every request, answers as `mode` says, and
 * counts the requests it is answering at once per event (two at once would be one event delivered
 * twice at the same time).
 */
export const startReceiver = async () => {
  const received: Array<Received> = []
  const hanging = new Set<ServerResponse>()
  const inFlight = new Map<number, number>()
  let maxInFlightPerEvent = 0
  let mode: Mode = "ok"
  let onRequest: ((event: Received) => void) | undefined
  let redirectTo: string | undefined
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Array<Buffer> = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString("utf8")
    const eventId = Number(request.headers["club-event-id"])
    const entry: Received = {
      eventId,
      timestamp: Number(request.headers["club-timestamp"]),
      signature: String(request.headers["club-signature"]),
      body,
      headers: Object.fromEntries(
        Object.entries(request.headers).flatMap(([name, value]) => typeof value === "string" ? [[name, value]] : [])
      ),
      event: JSON.parse(body),
      at: Date.now()
    }
    received.push(entry)
    onRequest?.(entry)
    const now = (inFlight.get(eventId) ?? 0) + 1
    inFlight.set(eventId, now)
    maxInFlightPerEvent = Math.max(maxInFlightPerEvent, now)
    const done = () => inFlight.set(eventId, (inFlight.get(eventId) ?? 1) - 1)
    response.on("close", done)
    switch (mode) {
      case "ok":
        return response.writeHead(204).end()
      case "fail":
        return response.writeHead(500).end("down for maintenance")
      case "hang":
        hanging.add(response)
        return
      case "slow":
        setTimeout(() => response.writeHead(204).end(), 100)
        return
      case "redirect":
        return response.writeHead(302, { location: redirectTo ?? "http://127.0.0.1:1/" }).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    setMode: (next: Mode) => {
      mode = next
    },
    /** Forgets what was received (session ids repeat between the databases a file runs on), and answers as `next` says. */
    reset: (next: Mode) => {
      received.length = 0
      mode = next
    },
    /** Where mode `redirect` sends the caller. */
    redirectTo: (url: string) => {
      redirectTo = url
    },
    onRequest: (listener: ((event: Received) => void) | undefined) => {
      onRequest = listener
    },
    maxInFlightPerEvent: () => maxInFlightPerEvent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Whether `received` carries a valid signature of its timestamp and body with `secret`. */
export const signedWith = (received: Received, secret: string) => {
  const expected = `v1=${createHmac("sha256", secret).update(`${received.timestamp}.${received.body}`).digest("hex")}`
  return expected.length === received.signature.length &&
    timingSafeEqual(Buffer.from(expected), Buffer.from(received.signature))
}

/**
 * The webhook workers' settings for a test: quick retries, polls and timeouts (a lease is twice the
 * timeout plus a second), and the receiver's 127.0.0.1, which a webhook reaches only when the
 * operator allows it (issue 37).
 */
export const quickDeliveries = {
  WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32",
  WEBHOOK_RETRY_BASE_MS: "100",
  WEBHOOK_RETRY_MAX_MS: "400",
  WEBHOOK_TIMEOUT_MS: "500",
  WEBHOOK_POLL_MS: "50"
}

/** One receiver for the test file, started before its tests and closed after them: call it inside a test. */
export const receiverOfTheFile = () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver?.close()
  })
  return () => {
    if (receiver === undefined) throw new Error("the receiver is started before the file's tests")
    return receiver
  }
}
