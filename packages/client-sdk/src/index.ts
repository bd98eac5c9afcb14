// ---- Promise face
export { ClubClient } from "./promise/ClubClient.ts"
export { ClubApiError, type ClubApiErrorOptions, isClubApiError } from "./promise/ClubApiError.ts"
export type { ClubApiErrorTag, ConnectErrorTag, ContractErrorTag } from "./promise/ClubApiErrorTag.ts"
export type { ActivitiesApi, ActivityFields } from "./promise/groups/activities.ts"
export type { AdminFields, AdminsApi } from "./promise/groups/admins.ts"
export type { AthleteFields, AthletesApi } from "./promise/groups/athletes.ts"
export type { CoachesApi, CoachFields } from "./promise/groups/coaches.ts"
export type { Health, HealthApi } from "./promise/groups/health.ts"
export type { SessionFields, SessionsApi } from "./promise/groups/sessions.ts"
export type { TodoApi } from "./promise/groups/todo.ts"
export type { NewUser, UserChanges, UsersApi } from "./promise/groups/users.ts"
export type { Plain } from "./promise/Plain.ts"

// ---- Effect face
export {
  ClubApiClient,
  type ClubApiClientShape,
  type LoginClientOptions,
  type TokenOptions
} from "./effect/ClubApiClient.ts"
export { login, type LoginOptions } from "./rest/login.ts"
export { makeRestClient } from "./rest/makeRestClient.ts"
export { bearerAuthentication } from "./rest/bearerAuthentication.ts"
export type { RestClient } from "./rest/RestClient.ts"
export type { RestError } from "./rest/RestError.ts"
export { makeTodoClient, type NewTask, type TodoClient } from "./todo/TodoClient.ts"
export { makeTodoTransport, type TodoTransportOptions } from "./todo/makeTodoTransport.ts"
export { bearerInterceptor } from "./todo/bearerInterceptor.ts"
export type { TodoProtocol } from "./todo/TodoProtocol.ts"
export { TodoRpcError } from "./todo/TodoRpcError.ts"
export type { ConnectCodeName } from "./todo/ConnectCodeName.ts"
export * from "./Ids.ts"

// ---- Shared
export { type AccessToken, TOKEN_EXPIRED_MESSAGE } from "./AccessToken.ts"
export type { ListTasksResponse, TaskResponse } from "@club/contract/todo"
// The contract's error classes and DTO schemas (each also names its type).
export {
  ActiviteDto,
  ActivityFailed,
  AdminDto,
  AthleteDto,
  AthleteUpdateFailed,
  ClubApi,
  CoachDto,
  Conflict,
  Forbidden,
  InvalidRequest,
  LoginDto,
  NotFound,
  NotFoundEmpty,
  SessionCreateFailed,
  SessionDto,
  SessionNotFoundText,
  Summary,
  TooManyRequests,
  Unauthorized,
  Unavailable,
  UserDto
} from "@club/contract/rest"
