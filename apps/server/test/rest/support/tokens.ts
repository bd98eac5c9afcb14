import { createHmac } from "node:crypto"
import { jwtSecret, type Role } from "./club.ts"

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

export interface Claims {
  readonly sub: string
  readonly role: Role
  readonly iat: number
  readonly exp: number
}

/** An HS256 JWT as CONTRACT.md describes the service's tokens, signed with `secret`. */
export const signToken = (
  claims: Claims,
  secret: string = jwtSecret,
  header: unknown = { alg: "HS256", typ: "JWT" }
) => {
  const signingInput = `${base64url(header)}.${base64url(claims)}`
  return `${signingInput}.${createHmac("sha256", secret).update(signingInput).digest("base64url")}`
}

export const nowSeconds = () => Math.floor(Date.now() / 1000)

export const claimsOf = (token: string): Claims =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as Claims
