import type { ClientHooks } from "./ClientOptions.ts"

/**
 * The client's `fetch` (the global one by default) with its hooks around it. It is looked up on each
 * call, not once, so that a `fetch` installed later (a test's, a polyfill) is the one used.
 */
export const fetchWithHooks = (
  fetch: typeof globalThis.fetch | undefined,
  hooks: ClientHooks | undefined
): typeof globalThis.fetch => {
  const send = fetch ?? ((input, init) => globalThis.fetch(input, init))
  if (hooks?.onRequest === undefined && hooks?.onResponse === undefined) return send
  return async (input, init) => {
    const request = new Request(input, init)
    await hooks.onRequest?.(request)
    const response = await send(request)
    await hooks.onResponse?.(response, request)
    return response
  }
}
