import { Cause, Runtime } from "effect"

/** SIGINT/SIGTERM interrupt the program; a shutdown so requested is a success (exit 0), not 130. */
export const exitCodeOnSignal: Runtime.Teardown = (exit, onExit) =>
  exit._tag === "Failure" && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
