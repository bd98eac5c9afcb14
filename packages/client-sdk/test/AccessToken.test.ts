import { describe, expect, it } from "vitest"
import { fromBearer, fromLogin, isExpired } from "../src/shared/AccessToken.ts"
import { userId } from "../src/shared/Ids.ts"

const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`

describe("AccessToken", () => {
  it("reads the expiry of a JWT from its exp claim", () => {
    expect(fromBearer(jwt({ sub: "1", exp: 1_800_000_000 })).expiresAt).toBe(1_800_000_000_000)
  })

  it("leaves the expiry unknown for a token that is not a JWT", () => {
    expect(fromBearer("opaque").expiresAt).toBeUndefined()
    expect(fromBearer("a.%%%.c").expiresAt).toBeUndefined()
  })

  it("measures a login's expiresIn on the local clock", () => {
    const login = {
      token: "t",
      tokenType: "Bearer",
      expiresIn: 60,
      user: { id: userId(1), name: "a", email: null, role: "ADMIN", coachId: null, athleteId: null, adminId: null }
    } as const
    expect(fromLogin(login, 1_000).expiresAt).toBe(61_000)
  })

  it("is expired from the expiry on, and never when the expiry is unknown", () => {
    expect(isExpired({ value: "t", expiresAt: 10 }, 9)).toBe(false)
    expect(isExpired({ value: "t", expiresAt: 10 }, 10)).toBe(true)
    expect(isExpired({ value: "t", expiresAt: undefined }, Number.MAX_SAFE_INTEGER)).toBe(false)
  })
})
