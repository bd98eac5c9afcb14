import { NodeRuntime } from "@effect/platform-node"
import { program } from "./App.ts"
import { exitCodeOnSignal } from "./Shutdown.ts"

// runMain turns SIGINT/SIGTERM into an interruption, so every layer's finalizer runs.
NodeRuntime.runMain(program, { disableErrorReporting: true, teardown: exitCodeOnSignal })
