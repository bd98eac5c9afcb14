import { Context, type Effect, type Option } from "effect"
import type { FeedToken } from "./FeedToken.ts"
import type { UserId } from "../shared/Ids.ts"

/**
 * Each user's calendar feed token, at most one. Only a SHA-256 hash of a token is stored: the
 * token itself exists only in the answer of `rotate`.
 */
export class FeedTokenRepository extends Context.Service<FeedTokenRepository, {
  /** A new token of 32 random bytes for the user, replacing any it had (which stops working at once). */
  rotate(userId: UserId): Effect.Effect<FeedToken>
  /** Removes the user's token; false when it had none. */
  revoke(userId: UserId): Effect.Effect<boolean>
  /** The user a token belongs to; none for a token never issued or replaced. */
  userOf(token: FeedToken): Effect.Effect<Option.Option<UserId>>
}>()("@club/core/FeedTokenRepository") {}
