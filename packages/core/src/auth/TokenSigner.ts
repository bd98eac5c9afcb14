import { Context, type Effect } from "effect"
import type { Unauthenticated } from "../shared/Errors.ts"
import type { UserId } from "../shared/Ids.ts"
import type { Role } from "../shared/Role.ts"

export interface TokenClaims {
  readonly userId: UserId
  readonly role: Role
  /** Issued-at, epoch seconds. */
  readonly issuedAt: number
  readonly expiresAt: number
}

/** Signed bearer tokens (HS256 JWT). `verify` checks signature, algorithm and expiry. */
export class TokenSigner extends Context.Service<TokenSigner, {
  sign(claims: TokenClaims): Effect.Effect<string>
  verify(token: string): Effect.Effect<TokenClaims, Unauthenticated>
}>()("@club/core/TokenSigner") {}
