export { TrustedProxies, trustingProxies } from "./handlers/clientAddress.ts"
export { RestApiLive } from "./RestApi.ts"
