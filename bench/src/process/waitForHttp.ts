import { setTimeout as sleep } from "node:timers/promises"

/** Polls `url` until it answers 2xx, the child exits, or `timeoutMs` passes. */
export const waitForHttp = async (url: string, exited: Promise<unknown>, timeoutMs = 120_000): Promise<void> => {
  let gone = false
  void exited.then(() => (gone = true))
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the process serving ${url} exited before answering`)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      await response.arrayBuffer()
      if (response.ok) return
    } catch {
      // Not listening yet.
    }
    await sleep(200)
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`)
}
