import { Context, Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import ipaddr from "ipaddr.js"
import proxyAddr from "proxy-addr"

export interface TrustedProxies {
  /** Whether `address`, the `hop`-th from the server (0: the connection's peer), is a trusted proxy. */
  readonly trusts: (address: string, hop: number) => boolean
}

/** The proxies whose `X-Forwarded-For` counts; by default none, and the header is ignored. */
export const TrustedProxies = Context.Reference<TrustedProxies>("@club/http-adapter/TrustedProxies", {
  defaultValue: () => ({ trusts: () => false })
})

/**
 * Trusts the given addresses and CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`), and
 * proxy-addr's names `loopback`, `linklocal` and `uniquelocal`. Throws a TypeError naming an entry
 * that is none of these.
 */
export const trustingProxies = (entries: ReadonlyArray<string>): TrustedProxies =>
  entries.length === 0 ? { trusts: () => false } : { trusts: proxyAddr.compile([...entries]) }

/** An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) as its IPv4 address, an IPv6 one in its one canonical spelling. */
const canonical = (address: string): string | null =>
  ipaddr.isValid(address) ? ipaddr.process(address).toString() : null

/**
 * The client's address, for throttling failed logins: the connection's peer, or, when the peer is
 * a trusted proxy, X-Forwarded-For read from the right, skipping trusted proxies: the first
 * address not trusted is the client (proxy-addr, as Express reads it). Only a trusted proxy's
 * header is believed, so a client cannot choose the address it is counted under.
 */
export const resolveClientAddress = (
  peer: string,
  forwardedFor: string | undefined,
  proxies: TrustedProxies
): string => {
  if (forwardedFor === undefined) return canonical(peer) ?? peer
  // proxy-addr reads a Node request; these are the two fields it reads.
  const nodeRequest = { socket: { remoteAddress: peer }, headers: { "x-forwarded-for": forwardedFor } }
  const resolved = proxyAddr(nodeRequest as unknown as Parameters<typeof proxyAddr>[0], proxies.trusts)
  // A trusted proxy that forwarded something other than an address: counted as that proxy.
  return canonical(resolved) ?? canonical(peer) ?? peer
}

/** The client's address of the request being handled (see `resolveClientAddress`); null when the connection has none. */
export const clientAddress: Effect.Effect<string | null, never, HttpServerRequest.HttpServerRequest> = Effect.gen(
  function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const peer = Option.getOrNull(request.remoteAddress)
    return peer === null ? null : resolveClientAddress(peer, request.headers["x-forwarded-for"], yield* TrustedProxies)
  }
)
