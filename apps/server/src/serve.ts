import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { program } from "./App.ts"
import { exitCodeOnSignal } from "./shared/shutdown.ts"

// Whatever this process creates (the data directory, the database's files, the token secret) is
// its owner's alone; the data directory's files hold password hashes.
process.umask(0o077)

// runMain turns SIGINT/SIGTERM into an interruption, so every layer's finalizer runs.
NodeRuntime.runMain(program, { disableErrorReporting: true, teardown: exitCodeOnSignal })
