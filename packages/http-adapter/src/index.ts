export { TrustedProxies, trustingProxies } from "./handlers/clientAddress.ts"
export { RestApiLive } from "./RestApi.ts"
export { type FastReadsHandler, makeFastReads } from "./fastReads/FastReads.ts"
