/** `@club/test-support`: the built server run as a process, for the tests and the bench. */
export * from "./eventually.ts"
export * from "./freePort.ts"
export * from "./ServerProcess.ts"
