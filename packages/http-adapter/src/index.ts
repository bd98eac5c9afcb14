export * from "./contract.ts"
export { Readiness } from "./handlers/health.ts"
export { RestApiLive } from "./RestApi.ts"
export { type FastReadsHandler, makeFastReads } from "./fastReads/FastReads.ts"
