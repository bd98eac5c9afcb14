// `pnpm start`'s build: the server and the packages it needs, built by turbo (cached when nothing
// changed). turbo's own output is held back; what it does is said on standard error, one line per
// stage (the first build of a fresh checkout takes about a minute, or more on a busy machine), and
// nothing when everything comes from turbo's cache. A failed build prints everything turbo said,
// and exits with its code.
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { join, resolve } from "node:path"

const root = resolve(import.meta.dirname, "..")
const say = (line) => process.stderr.write(`${line}\n`)
const started = Date.now()

if (!existsSync(join(root, "apps", "server", "dist", "main.js"))) {
  say("building the server and its packages (first start: about a minute)…")
}
const build = spawn(join(root, "node_modules", ".bin", "turbo"), [
  "run",
  "build",
  "--filter=@club/server...",
  "--output-logs=new-only"
], {
  cwd: root,
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0" },
  stdio: ["ignore", "pipe", "pipe"]
})
const output = []
const announced = new Set()
let pending = ""
const read = (chunk) => {
  output.push(chunk)
  const lines = (pending + chunk).split("\n")
  pending = lines.pop() ?? ""
  for (const line of lines) {
    // turbo prefixes each task's lines with `<package>:build: `; a task replayed from the cache says so first.
    const task = /^(@?[\w./-]+):build: (.*)$/u.exec(line)
    if (task === null || announced.has(task[1])) continue
    announced.add(task[1])
    if (!/cache hit/u.test(task[2])) say(`building ${task[1]}…`)
  }
}
build.stdout.setEncoding("utf8").on("data", read)
build.stderr.setEncoding("utf8").on("data", (chunk) => output.push(chunk))
const { code, signal, error } = await new Promise((resolvePromise) => {
  build.once("error", (error) => resolvePromise({ code: null, signal: null, error }))
  build.once("exit", (code, signal) => resolvePromise({ code, signal, error: undefined }))
})
if (code !== 0) {
  process.stderr.write(output.join(""))
  if (error !== undefined) say(error.message)
  say(`\nThe build failed (turbo exited ${code ?? signal ?? "without starting"}); the server was not started.`)
  process.exit(code ?? 1)
}
if (announced.size > 0 && [...announced].some((name) => output.join("").includes(`${name}:build: cache miss`))) {
  say(`built in ${Math.round((Date.now() - started) / 1000)} s; starting the server`)
}
