/**
 * `@club/test-support`: the built server run as a process, for the tests and the bench, and a REST
 * answer read whole. Its checks of those answers are `@club/test-support/expectations` (they import
 * vitest, which the bench does not run under).
 */
export * from "./eventually.ts"
export * from "./freePort.ts"
export * from "./memoryLimit.ts"
export * from "./nodeForAnyUser.ts"
export * from "./Reply.ts"
export * from "./ServerProcess.ts"
export * from "./SmtpTestServer.ts"
export * from "./zonedInstants.ts"
