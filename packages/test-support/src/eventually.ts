import { setTimeout as sleep } from "node:timers/promises"

/** Polls `check` until it holds; answers whether it did within `timeoutMs`. */
export const eventually = async (check: () => Promise<boolean>, timeoutMs: number, everyMs = 200) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return true
    await sleep(everyMs)
  }
  return false
}
