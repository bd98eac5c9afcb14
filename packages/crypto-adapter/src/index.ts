export * as HmacCursorSeal from "./HmacCursorSeal.ts"
export * as JwtTokenSigner from "./JwtTokenSigner.ts"
export * as ScryptPasswordHasher from "./ScryptPasswordHasher.ts"
