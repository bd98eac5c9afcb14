import { traced } from "../shared/traced.ts"
import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"
import type { Actor } from "../shared/Actor.ts"
import { RateLimited, Unauthenticated } from "../shared/Errors.ts"
import { authorize, type Operation, type Reach, reachesOf } from "../shared/Permissions.ts"
import type { User } from "../users/User.ts"
import { LoginAttempts } from "./LoginAttempts.ts"
import { PasswordHasher } from "./PasswordHasher.ts"
import { TokenSigner } from "./TokenSigner.ts"
import { UserRepository } from "../users/UserRepository.ts"
import { AuthSettings } from "./AuthSettings.ts"
import { loginDelays, loginThrottle } from "./LoginThrottle.ts"
import { found } from "../shared/found.ts"
import type { AthleteId } from "../shared/Ids.ts"
import { GuardianshipRepository } from "../membership/GuardianshipRepository.ts"
import type { Group } from "../membership/Group.ts"
import { groupsOfCaller } from "../membership/GroupService.ts"
import { GroupRepository } from "../membership/GroupRepository.ts"

/** `GET /auth/me`: the caller's user and the operations its role may call, with how far it reaches in each. */
export interface Me extends User {
  readonly rules: Partial<Record<Operation, Reach>>
  /** The athletes the caller answers for as their guardian, by id (at most `GuardianshipBounds.athletesPerGuardian`). */
  readonly guardedAthleteIds: ReadonlyArray<AthleteId>
  /** The caller's groups (issue 41): a coach's, those it coaches; an athlete user's, its athlete's on the club's today. */
  readonly groups: ReadonlyArray<Group>
}

export interface LoginRequest {
  readonly name: string
  readonly password: Redacted.Redacted<string>
  /** The caller's network address, when known: failures are counted per address, and per name at an address. */
  readonly clientAddress: string | null
}

export interface LoginResult {
  readonly token: string
  readonly expiresIn: number
  readonly user: User
}

const make = Effect.gen(function*() {
  const users = yield* UserRepository
  const hasher = yield* PasswordHasher
  const signer = yield* TokenSigner
  const attempts = yield* LoginAttempts
  const guardianships = yield* GuardianshipRepository
  const groupRepository = yield* GroupRepository

  return {
    login: traced("AuthService.login")(function*(request: LoginRequest) {
      const settings = yield* AuthSettings
      const now = yield* Clock.currentTimeMillis
      const forgetBefore = now - settings.failureWindowSeconds * 1000
      const throttle = loginThrottle(settings, request.name, request.clientAddress)
      // From its admission to its verdict an attempt runs to its end, even when its caller goes away
      // meanwhile: an admitted attempt counts as a failure until judged, so an abandoned one would
      // stay a failure, the right password's too (a client dropping its connections would lock
      // itself out); a wrong one is counted either way.
      const { tokensValidAfter, user } = yield* Effect.uninterruptible(Effect.gen(function*() {
        // Before the password is even looked at: the right one waits like a wrong one.
        const admission = yield* attempts.admit(throttle.keys, loginDelays(settings), now, forgetBefore)
        if (admission._tag === "Refused") {
          return yield* new RateLimited({ retryAfterSeconds: Math.max(1, Math.ceil(admission.waitMs / 1000)) })
        }
        const credentials = yield* users.findCredentialsByName(request.name)
        // An unknown name costs a hash too, so that timing does not tell which part was wrong.
        const valid = Option.isSome(credentials)
          ? yield* hasher.verify(request.password, credentials.value.passwordHash)
          : yield* hasher.hash(request.password).pipe(Effect.as(false))
        if (!valid || Option.isNone(credentials)) {
          // The admission already counted this failure.
          yield* attempts.forget(forgetBefore)
          return yield* new Unauthenticated({ reason: "credentials" })
        }
        yield* attempts.succeeded([throttle.nameAtAddress], [throttle.address])
        return credentials.value
      }))
      // Right after a role or password change the bound lies in the current second's future.
      const issuedAt = Math.max(Math.floor(now / 1000), tokensValidAfter)
      const token = yield* signer.sign({
        userId: user.id,
        role: user.role,
        issuedAt,
        expiresAt: issuedAt + settings.tokenTtlSeconds
      })
      return { token, expiresIn: settings.tokenTtlSeconds, user } satisfies LoginResult
    }),

    /**
     * A bearer token to the actor it stands for, read fresh from the store: a deleted user's
     * token, or one issued before a role or password change, no longer counts.
     */
    authenticate: traced("AuthService.authenticate")(function*(token: string) {
      if (token.length === 0) return yield* new Unauthenticated({ reason: "missing" })
      const claims = yield* signer.verify(token)
      const credentials = yield* users.findCredentialsById(claims.userId)
      if (Option.isNone(credentials)) return yield* new Unauthenticated({ reason: "invalid" })
      const { tokensValidAfter, user } = credentials.value
      if (claims.issuedAt < tokensValidAfter || claims.role !== user.role) {
        return yield* new Unauthenticated({ reason: "invalid" })
      }
      return {
        userId: user.id,
        role: user.role,
        athleteId: user.athleteId,
        coachId: user.coachId,
        adminId: user.adminId
      } satisfies Actor
    }),

    /** The caller's user, with the record it is linked to and what its role may do (the role table). */
    me: traced("AuthService.me")(function*() {
      const actor = yield* authorize("auth.me")
      // The user, its links and its groups read together: three statements at once, not one after another.
      const [user, guarded, groups] = yield* Effect.all([
        users.findById(actor.userId).pipe(found("User", actor.userId)),
        guardianships.athletesOf(actor.userId),
        groupsOfCaller(groupRepository, actor)
      ], { concurrency: "unbounded" })
      return {
        ...user,
        rules: reachesOf(user.role),
        groups,
        guardedAthleteIds: Option.getOrElse(guarded, () => [])
      } satisfies Me
    })
  }
})

export class AuthService extends Context.Service<AuthService, Effect.Success<typeof make>>()(
  "@club/core/AuthService"
) {
  static readonly layer = Layer.effect(AuthService, make)
}
