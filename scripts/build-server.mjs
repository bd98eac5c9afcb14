// `pnpm start`'s build: the server and the packages it needs, built by turbo (cached when nothing
// changed) with its output held back, so that the first lines an operator sees are the server's.
// A failed build prints everything turbo said, and exits with its code.
import { spawnSync } from "node:child_process"
import { join, resolve } from "node:path"

const root = resolve(import.meta.dirname, "..")
const build = spawnSync(join(root, "node_modules", ".bin", "turbo"), ["run", "build", "--filter=@club/server..."], {
  cwd: root,
  encoding: "utf8",
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", FORCE_COLOR: process.stderr.isTTY ? "1" : "0" },
  maxBuffer: 256 * 1024 * 1024
})
if (build.status !== 0) {
  process.stderr.write(build.stdout ?? "")
  process.stderr.write(build.stderr ?? "")
  if (build.error !== undefined) process.stderr.write(`${build.error.message}\n`)
  process.stderr.write(
    `\nThe build failed (turbo exited ${build.status ?? build.signal}); the server was not started.\n`
  )
  process.exit(build.status ?? 1)
}
