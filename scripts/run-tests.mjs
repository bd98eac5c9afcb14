// Runs every test once (vitest, all packages and apps) and ends with the line CI reads:
// `tests: N passed, M failed, K skipped`.
import { join } from "node:path"
import { exitWithTally, root, runVitest, testEnv } from "./vitestRun.mjs"

const report = join(root, "test-results", "vitest.json")
exitWithTally(report, runVitest(process.argv.slice(2), report, testEnv()))
