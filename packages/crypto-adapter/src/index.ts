export * as JwtTokenSigner from "./JwtTokenSigner.ts"
export * as ScryptPasswordHasher from "./ScryptPasswordHasher.ts"
