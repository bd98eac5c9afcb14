import { join } from "node:path"
import { ensureDir, tmpDir } from "../process/paths.ts"
import { settings } from "../settings.ts"

/** With BENCH_PROFILE=1, node's flags for a CPU profile of the server `name`, under bench/.tmp/profiles/<name>. */
export const profileArgs = (name: string): ReadonlyArray<string> =>
  settings.profile ? ["--cpu-prof", `--cpu-prof-dir=${ensureDir(join(tmpDir, "profiles", name))}`] : []
