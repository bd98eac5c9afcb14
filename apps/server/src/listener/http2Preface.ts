import type { Socket } from "node:net"

/** The first bytes of every HTTP/2 connection without TLS (RFC 9113, section 3.4). */
export const http2Preface = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1")

/**
 * Reads from a fresh connection until its first bytes either are the HTTP/2 preface or
 * cannot become it, puts those bytes back, and reports which protocol the client speaks.
 * An HTTP/1.1 request line differs from the preface by its second byte at the latest.
 */
export const detectProtocol = (
  socket: Socket,
  onDetected: (protocol: "http/1.1" | "h2c") => void,
  options: { readonly timeoutMs: number }
): void => {
  let received: Buffer = Buffer.alloc(0)
  const timer = setTimeout(() => socket.destroy(), options.timeoutMs)
  const stop = () => {
    clearTimeout(timer)
    socket.off("data", onData)
    socket.off("close", stop)
  }
  const onData = (chunk: Buffer) => {
    received = Buffer.concat([received, chunk])
    const compared = Math.min(received.length, http2Preface.length)
    const isPrefix = received.subarray(0, compared).equals(http2Preface.subarray(0, compared))
    if (isPrefix && received.length < http2Preface.length) return
    stop()
    socket.pause()
    socket.unshift(received)
    onDetected(isPrefix ? "h2c" : "http/1.1")
  }
  socket.on("data", onData)
  socket.once("close", stop)
}
