export * from "./contract.ts"
export { Readiness } from "./handlers/health.ts"
export { RestApiLive } from "./RestApi.ts"
