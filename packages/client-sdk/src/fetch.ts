/**
 * `@club/client-sdk/fetch`: the REST API's Promise face without Effect's runtime, for a browser
 * bundle that must stay small. The same `ClubRestClient` API as `@club/client-sdk/rest` but its
 * `rest` (the Effect client underneath), and no local check of a request's arguments.
 * docs/DECISIONS.md, "A light REST client for browsers".
 */
export { ClubRestClient, type LoginClientOptions, type TokenClientOptions } from "./fetch/ClubFetchClient.ts"
export type { PromiseCall, PromiseRestGroups } from "./promise/PromiseRest.ts"
export { type AccessToken, TOKEN_EXPIRED_MESSAGE } from "./shared/AccessToken.ts"
export type { CallOptions, ClientHooks, ClientOptions, RetryOptions } from "./shared/ClientOptions.ts"
export type {
  ActivityId,
  AdminId,
  AthleteId,
  CalendarDate,
  CoachId,
  LocalDateTime,
  SessionId,
  TaskId,
  UserId
} from "@club/contract/rest"
export { ClubApiError, type ClubApiErrorOptions, isClubApiError, type Problem } from "./shared/ClubApiError.ts"
export type { ClubApiErrorTag } from "./shared/ClubApiErrorTag.ts"
export { activityId, adminId, athleteId, calendarDate, coachId, localDateTime, sessionId, userId } from "./fetch/ids.ts"
