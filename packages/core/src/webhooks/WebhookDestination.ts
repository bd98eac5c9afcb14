import ipaddr from "ipaddr.js"

/**
 * Where a webhook may deliver (issue 37, OWASP's SSRF prevention cheat sheet): only http or https,
 * and only to a public unicast address, unless the operator allowed the address's network
 * (`WEBHOOK_ALLOWED_NETWORKS`, for receivers on the operator's own network). The rule is checked on
 * the URL at registration and on every address a delivery connects to.
 */

/** The WHATWG URL parser every JavaScript runtime has, typed here: core compiles without DOM or Node types. */
interface WhatwgUrl {
  readonly protocol: string
  readonly hostname: string
}
const WhatwgUrl = (globalThis as unknown as { readonly URL: new(text: string) => WhatwgUrl }).URL

/** A network the operator allows, as `ipaddr.parseCIDR` reads it. */
export type AllowedNetwork = readonly [ipaddr.IPv4 | ipaddr.IPv6, number]

/**
 * The networks of a comma-separated list of CIDR ranges or addresses (`10.0.0.0/8,127.0.0.1`), or
 * the first entry that is neither.
 */
export const parseAllowedNetworks = (
  text: string
): { readonly networks: ReadonlyArray<AllowedNetwork> } | { readonly invalid: string } => {
  const networks: Array<AllowedNetwork> = []
  for (const entry of text.split(",").map((s) => s.trim()).filter((s) => s.length > 0)) {
    try {
      networks.push(
        entry.includes("/")
          ? ipaddr.parseCIDR(entry)
          : [ipaddr.parse(entry), ipaddr.parse(entry).kind() === "ipv4" ? 32 : 128]
      )
    } catch {
      return { invalid: entry }
    }
  }
  return { networks }
}

/** IPv6 global unicast (RFC 4291): everything outside it is local, special or not yet assigned. */
const globalUnicast6 = ipaddr.parseCIDR("2000::/3")

/**
 * Why a delivery may not connect to `address` (an IP address as a resolver or the URL parser
 * gives it), or undefined when it may. An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged
 * as the IPv4 address it maps; an IPv4-compatible one (`::127.0.0.1`) is outside global unicast.
 */
export const addressRefusal = (address: string, allowed: ReadonlyArray<AllowedNetwork>): string | undefined => {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    // `process` turns an IPv4-mapped IPv6 address into the IPv4 address it maps.
    parsed = ipaddr.process(address.replace(/^\[|\]$/gu, ""))
  } catch {
    return "not an IP address"
  }
  if (allowed.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits))) {
    return undefined
  }
  const range = parsed.range()
  if (range !== "unicast") return `a ${range} address`
  if (parsed.kind() === "ipv6" && !parsed.match(globalUnicast6)) return "not a global unicast address"
  return undefined
}

/**
 * The host a webhook URL names, as the WHATWG URL parser canonicalises it: `http://0x7f000001/`,
 * `http://2130706433/` and `http://127.1/` all name `127.0.0.1`; an IPv6 literal comes without its
 * brackets. `address` is set when the host is an IP address (nothing to resolve).
 */
export const webhookHost = (
  url: string
): { readonly host: string; readonly address: string | undefined } | { readonly invalid: string } => {
  let parsed: WhatwgUrl
  try {
    parsed = new WhatwgUrl(url)
  } catch {
    return { invalid: "not a URL" }
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return { invalid: "only http and https" }
  const host = parsed.hostname.replace(/^\[|\]$/gu, "")
  if (host.length === 0) return { invalid: "no host" }
  return { host, address: ipaddr.isValid(host) && /^[\d.]+$|:/u.test(host) ? host : undefined }
}
