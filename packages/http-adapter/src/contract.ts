/** The REST contract only: schemas and endpoints, no server code. Safe to import from clients. */
export * from "./contract/Api.ts"
export * from "./contract/Authentication.ts"
export * from "./contract/BodyLimit.ts"
export * from "./contract/Dto.ts"
export * from "./contract/Groups.ts"
export * from "./contract/Problems.ts"
export * from "./contract/RequestErrors.ts"
export * from "./contract/SeedFailures.ts"
