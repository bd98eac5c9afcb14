export * as HmacCursorSeal from "./HmacCursorSeal.ts"
export * as JwtTokenSigner from "./JwtTokenSigner.ts"
export * as ScryptPasswordHasher from "./ScryptPasswordHasher.ts"
export * as HmacUnsubscribeSeal from "./HmacUnsubscribeSeal.ts"
