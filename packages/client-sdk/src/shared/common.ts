/** What every entry point of the SDK shares: options, errors, ids and dates, tokens. */
export { type AccessToken, TOKEN_EXPIRED_MESSAGE } from "./AccessToken.ts"
export type { CallOptions, ClientHooks, ClientOptions, RetryOptions } from "./ClientOptions.ts"
export type { ConnectCodeName, ConnectCodeTag } from "./ConnectCodeNames.ts"
export * from "./Ids.ts"
export { calendarDate, localDateTime, toDate } from "./localDateTime.ts"
export { ClubApiError, type ClubApiErrorOptions, isClubApiError, type Problem } from "./ClubApiError.ts"
export type { ClubApiErrorTag, ConnectErrorTag, ContractErrorTag } from "./ClubApiErrorTag.ts"
