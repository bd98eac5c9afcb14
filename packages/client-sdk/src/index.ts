/**
 * `@club/client-sdk`: the REST API and `todo.TodoService`, each with a Promise face (`ClubClient`)
 * and an Effect face (`ClubApiClient`). `@club/client-sdk/rest` and `@club/client-sdk/todo` hold
 * each half alone.
 */
export * from "./rest.ts"
export * from "./todo.ts"

// ---- Promise face
export { ClubClient } from "./promise/ClubClient.ts"

// ---- Effect face
export {
  ClubApiClient,
  type ClubApiClientShape,
  type LoginClientOptions as EffectLoginOptions,
  type TokenOptions
} from "./effect/ClubApiClient.ts"

// ---- The contract's error classes and DTO schemas (each also names its type).
export {
  ActivityDto,
  ActivityFailed,
  ActivitySummaryDto,
  AdminDto,
  AthleteDto,
  AthleteUpdateFailed,
  ClubApi,
  CoachDto,
  Conflict,
  Forbidden,
  InvalidRequest,
  LoginDto,
  MethodNotAllowed,
  NotFound,
  NotFoundEmpty,
  SessionCreateFailed,
  SessionDto,
  SessionNotFoundText,
  SessionSummaryDto,
  TooManyRequests,
  Unauthorized,
  Unavailable,
  UserDto
} from "@club/contract/rest"
