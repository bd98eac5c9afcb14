import { describe, expect, it } from "@effect/vitest"
import { resolveClientAddress, trustingProxies } from "../src/auth/clientAddress.ts"

const none = trustingProxies([])
const local = trustingProxies(["127.0.0.1", "10.0.0.0/8"])

describe("the client address of a login", () => {
  it("is the connection's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(resolveClientAddress("198.51.100.7", undefined, none)).toBe("198.51.100.7")
    expect(resolveClientAddress("127.0.0.1", "203.0.113.7", none)).toBe("127.0.0.1")
  })

  it("is read from X-Forwarded-For when the peer is a trusted proxy: from the right, skipping trusted proxies", () => {
    expect(resolveClientAddress("127.0.0.1", "203.0.113.7", local)).toBe("203.0.113.7")
    // A client's own X-Forwarded-For (left) is not believed: the proxy appended what it saw.
    expect(resolveClientAddress("127.0.0.1", "192.0.2.1, 203.0.113.7", local)).toBe("203.0.113.7")
    // Through two trusted proxies (10.1.2.3 forwarded to 127.0.0.1).
    expect(resolveClientAddress("127.0.0.1", "192.0.2.1, 203.0.113.8, 10.1.2.3", local)).toBe("203.0.113.8")
  })

  it("ignores X-Forwarded-For from a peer that is not trusted", () => {
    expect(resolveClientAddress("127.0.0.3", "203.0.113.7", local)).toBe("127.0.0.3")
    expect(resolveClientAddress("198.51.100.7", "127.0.0.1", local)).toBe("198.51.100.7")
  })

  it("treats an IPv4-mapped IPv6 address as its IPv4 address, as peer, as trusted proxy and as client", () => {
    expect(resolveClientAddress("::ffff:198.51.100.7", undefined, none)).toBe("198.51.100.7")
    expect(resolveClientAddress("::ffff:127.0.0.1", "203.0.113.7", local)).toBe("203.0.113.7")
    expect(resolveClientAddress("::ffff:127.0.0.1", "::ffff:203.0.113.7", local)).toBe("203.0.113.7")
    expect(resolveClientAddress("::ffff:127.0.0.1", "203.0.113.7", trustingProxies(["::ffff:127.0.0.1"]))).toBe(
      "203.0.113.7"
    )
  })

  it("spells an IPv6 address one way only", () => {
    expect(resolveClientAddress("2001:DB8:0:0:0:0:0:1", undefined, none)).toBe("2001:db8::1")
    expect(resolveClientAddress("::1", "2001:0db8::0001", trustingProxies(["loopback"]))).toBe("2001:db8::1")
  })

  it("counts a trusted proxy that forwarded something other than an address as that proxy", () => {
    expect(resolveClientAddress("127.0.0.1", "not-an-address", local)).toBe("127.0.0.1")
  })

  it("refuses a trusted-proxy entry that is no address, range or name", () => {
    expect(() => trustingProxies(["10.0.0.0/33"])).toThrow(/invalid range/u)
    expect(() => trustingProxies(["proxy.example"])).toThrow(/invalid IP address/u)
  })
})
