/**
 * `@club/client-sdk/rest`: the REST API alone, both faces, without TodoService (so without
 * protobuf or Connect in a browser bundle).
 */

// ---- Promise face
export { ClubRestClient, type LoginClientOptions, type TokenClientOptions } from "./promise/ClubRestClient.ts"
export type { PromiseCall, PromiseRestGroups } from "./promise/PromiseRest.ts"

// ---- Effect face
export { bearerAuthentication } from "./rest/bearerAuthentication.ts"
export { login, type LoginOptions } from "./rest/login.ts"
export { makeRestClient } from "./rest/makeRestClient.ts"
export type { RestClient } from "./rest/RestClient.ts"
export type { RestClientOptions } from "./rest/RestClientOptions.ts"
export type { RestError } from "./rest/RestError.ts"
export { CallSettings, type SeenAnswer, withCallOptions } from "./shared/CallSettings.ts"

// ---- Shared
export * from "./shared/common.ts"
