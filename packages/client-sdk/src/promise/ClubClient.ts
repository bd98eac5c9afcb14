import type { UserDto } from "@club/contract/rest"
import { Clock, Effect } from "effect"
import { isExpired } from "../AccessToken.ts"
import {
  ClubApiClient,
  type ClubApiClientShape,
  type LoginClientOptions,
  type TokenOptions
} from "../effect/ClubApiClient.ts"
import { checkRequest } from "./checkRequest.ts"
import { type ActivitiesApi, activitiesOf } from "./groups/activities.ts"
import { type AdminsApi, adminsOf } from "./groups/admins.ts"
import { type AthletesApi, athletesOf } from "./groups/athletes.ts"
import { type CoachesApi, coachesOf } from "./groups/coaches.ts"
import { type HealthApi, healthOf } from "./groups/health.ts"
import { type SessionsApi, sessionsOf } from "./groups/sessions.ts"
import { type TodoApi, todoOf } from "./groups/todo.ts"
import { type UsersApi, usersOf } from "./groups/users.ts"
import { run } from "./run.ts"

/**
 * The Promise face of the SDK: every operation of the REST contract and of `todo.TodoService`,
 * each returning a Promise of the typed answer, or rejecting with a `ClubApiError`.
 */
export class ClubClient {
  /** `POST /auth/login`, then a client that sends the new token with every call. */
  static login(options: LoginClientOptions): Promise<ClubClient> {
    return run(
      checkRequest("auth", "login", { payload: { name: options.name, password: options.password } }).pipe(
        Effect.andThen(ClubApiClient.makeByLogin(options)),
        Effect.map((api) => new ClubClient(api))
      )
    )
  }

  /** A client for a token obtained earlier; its expiry is read from the JWT. */
  static fromToken(options: TokenOptions): ClubClient {
    return new ClubClient(Effect.runSync(ClubApiClient.make(options)))
  }

  /** The logged-in user (undefined for `fromToken`: see `me()`). */
  readonly user: UserDto | undefined
  /** The bearer token, e.g. to keep for `fromToken`. */
  readonly token: string
  /** When the token stops being accepted, when known. */
  readonly expiresAt: Date | undefined

  readonly health: HealthApi
  readonly activities: ActivitiesApi
  readonly athletes: AthletesApi
  readonly sessions: SessionsApi
  readonly coaches: CoachesApi
  readonly users: UsersApi
  readonly admins: AdminsApi
  readonly todo: TodoApi

  private constructor(
    /** The Effect face underneath: the same clients, for code that mixes both. */
    readonly effect: ClubApiClientShape
  ) {
    this.user = effect.user
    this.token = effect.token.value
    this.expiresAt = effect.token.expiresAt === undefined ? undefined : new Date(effect.token.expiresAt)
    this.health = healthOf(effect)
    this.activities = activitiesOf(effect)
    this.athletes = athletesOf(effect)
    this.sessions = sessionsOf(effect)
    this.coaches = coachesOf(effect)
    this.users = usersOf(effect)
    this.admins = adminsOf(effect)
    this.todo = todoOf(effect.todo)
  }

  /** `GET /auth/me`: the caller's user. */
  me(): Promise<UserDto> {
    return run(this.effect.auth.me())
  }

  /** Whether the token's lifetime is over; every call would then fail with `TokenExpired`. */
  isExpired(): boolean {
    return isExpired(this.effect.token, Effect.runSync(Clock.currentTimeMillis))
  }
}
