import { createClient, type HandlerContext } from "@connectrpc/connect"
import {
  connectNodeAdapter,
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport
} from "@connectrpc/connect-node"
import { describe, expect, it } from "vitest"
import { TodoService } from "@club/contract/todo"
import { serveForFile } from "./fixtures/serveTodo.ts"

/**
 * connect-es aborts the signal of every call when the call ends, and connect-node the signal of
 * every request when its exchange closes: the signal is aborted, and its reason is an AbortError
 * DOMException, over every protocol.
 */

const signals: Array<AbortSignal> = []
const servers = serveForFile(() =>
  connectNodeAdapter({
    routes: (router) =>
      router.service(TodoService, {
        listTasks: (_request, context: HandlerContext) => {
          signals.push(context.signal)
          return { tasks: [] }
        }
      })
  })
)

const transports = {
  "Connect (HTTP/1.1)": () => createConnectTransport({ baseUrl: servers().http1Url, httpVersion: "1.1" }),
  "gRPC-Web (HTTP/1.1)": () => createGrpcWebTransport({ baseUrl: servers().http1Url, httpVersion: "1.1" }),
  "gRPC (HTTP/2)": () => createGrpcTransport({ baseUrl: servers().http2Url })
}

/** The signal of one call, once the call has ended on the server. */
const signalOfOneCall = async (transport: keyof typeof transports) => {
  const before = signals.length
  await createClient(TodoService, transports[transport]()).listTasks({})
  const signal = signals[before]!
  // The server ends the call after the client has its answer; wait for it.
  for (let turn = 0; turn < 100 && !signal.aborted; turn++) await new Promise((resolve) => setTimeout(resolve, 5))
  return signal
}

describe("a call's signal, once the call has ended", () => {
  for (const transport of Object.keys(transports) as Array<keyof typeof transports>) {
    it(`${transport}: aborted, with an AbortError DOMException as its reason`, async () => {
      const signal = await signalOfOneCall(transport)
      expect(signal.aborted).toBe(true)
      expect(signal.reason).toBeInstanceOf(DOMException)
      expect((signal.reason as DOMException).name).toBe("AbortError")
      expect(() => signal.throwIfAborted()).toThrow(expect.objectContaining({ name: "AbortError" }))
    })
  }
})
