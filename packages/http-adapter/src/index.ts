export { TrustedProxies, trustingProxies } from "./auth/clientAddress.ts"
export { RestApiLive } from "./RestApi.ts"
