// `pnpm start`: builds what is needed (scripts/build-server.mjs; `pnpm start --no-build` does not), then runs the server as a child
// of this process and makes sure that a supervisor's signal reaches it, whichever process of the
// chain it was sent to. pnpm runs `sh -c "node scripts/start.mjs"`, and `node` there is
// node_modules/.bin/node, itself a shell script that runs the pinned Node without `exec`: a
// SIGTERM sent to pnpm or to either shell ends that process and leaves its children running,
// orphaned. So this launcher
//   - forwards SIGTERM, SIGINT and SIGHUP to the server, which drains and exits;
//   - watches the processes above it up to pnpm's own, and those above pnpm that only run it (npx,
//     its shell, the wrapper), and stops the server as SIGTERM would as soon as one of them is gone;
//   - exits with the server's exit code (or its signal).
// docs/DECISIONS.md, "What a supervisor signals".
import { spawn } from "node:child_process"
import { readFileSync, readlinkSync, realpathSync } from "node:fs"
import { totalmem } from "node:os"
import { join, resolve } from "node:path"

const root = resolve(import.meta.dirname, "..")
const nodeArguments = JSON.parse(readFileSync(join(root, "apps", "server", "nodeArguments.json"), "utf8"))
/**
 * On a host of little memory (a container's or cgroup's limit, else the machine's), the arguments
 * of `nodeArguments.smallMemory.json` come after those: V8's baseline WebAssembly compiler only, and
 * a young generation of 2 MiB a semi-space, with which the server on the embedded database runs
 * within 256 MiB; the defaults peak near 1 GiB (docs/decisions/0332).
 */
const smallMemoryBytes = 1536 * 1024 * 1024
const hostMemory = Math.min(totalmem(), process.constrainedMemory() || Number.POSITIVE_INFINITY)
const serverArguments = hostMemory < smallMemoryBytes
  ? [
    ...nodeArguments,
    ...JSON.parse(readFileSync(join(root, "apps", "server", "nodeArguments.smallMemory.json"), "utf8"))
  ]
  : nodeArguments
const forwarded = ["SIGTERM", "SIGINT", "SIGHUP"]
const watchEveryMs = 500

/** The parent of a process, from Linux's /proc; undefined where there is none to read. */
const parentOf = (pid) => {
  try {
    // The command name (field 2) may hold spaces and parentheses: the fields after its last ")" are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return undefined
  }
}
/** A process's arguments, its program first, from Linux's /proc; none where there is none to read. */
const argumentsOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((argument) => argument !== "")
  } catch {
    return []
  }
}
/** A path with its links resolved, relative to `directory`; undefined where it names nothing. */
const realPathOf = (path, directory) => {
  try {
    return realpathSync(resolve(directory, path))
  } catch {
    return undefined
  }
}

/**
 * Whether process `pid` runs the package manager's script `manager` (`npm_execpath`, a real path),
 * named by that path or by a link to it: npx runs pnpm as `node_modules/.bin/pnpm`, a link.
 */
const runsManager = (pid, manager) => {
  const args = argumentsOf(pid)
  if (args.includes(manager)) return true
  let directory
  try {
    directory = readlinkSync(`/proc/${pid}/cwd`)
  } catch {
    return false
  }
  const real = realPathOf(manager, directory)
  return args.slice(1).some((argument) => realPathOf(argument, directory) === real)
}

/** Whether process `pid` is the shell of `node_modules/.bin/node`, which runs the pinned Node without `exec`. */
const isNodeWrapper = (pid) => argumentsOf(pid).some((argument) => argument.endsWith("node_modules/.bin/node"))

/**
 * Whether process `pid` exists only to run the package manager below it: npx (whose title is
 * `npm exec ...`, or its script before it sets one), or a shell `sh -c 'pnpm' ...` through which npx
 * runs the command. npx forwards a SIGTERM to that shell, which ends without passing it on.
 */
const onlyRunsManager = (pid) => {
  const [program = "", ...rest] = argumentsOf(pid)
  if (/^(npm exec|npx)(\s|$)/u.test(program)) return true
  if (rest.some((argument) => argument.endsWith("npx-cli.js"))) return true
  return /(^|\/)(sh|dash|bash)$/u.test(program) && rest[0] === "-c" &&
    /^'?(pnpm|npm|npx|corepack)'?(\s|$)/u.test(rest[1] ?? "")
}

/**
 * The processes between this one and the package manager that started it, that one included, and
 * above the package manager those that exist only to run it: the `node_modules/.bin/node` shell
 * (npx, in this checkout, runs pnpm with it), the `sh -c` of npx, npx itself. These are the shells
 * and wrappers of `npx pnpm start`, any of which a supervisor may signal. Run without pnpm (no
 * `npm_execpath`), only the parent.
 */
const chainAbove = () => {
  const manager = process.env["npm_execpath"]
  const chain = []
  for (let pid = process.ppid; pid !== undefined && pid > 1 && chain.length < 8; pid = parentOf(pid)) {
    chain.push(pid)
    if (manager === undefined) return chain
    if (runsManager(pid, manager)) {
      for (
        let above = parentOf(pid);
        above !== undefined && above > 1 && chain.length < 16 && (isNodeWrapper(above) || onlyRunsManager(above));
        above = parentOf(above)
      ) chain.push(above)
      return chain
    }
  }
  return manager === undefined ? chain : chain.slice(0, 1)
}

const isAlive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === "EPERM"
  }
}

const watched = chainAbove()
let child
let stopping
const stop = (signal) => {
  stopping ??= signal
  if (child !== undefined && child.exitCode === null) child.kill(signal)
  // During the build there is no server yet: stop the build and go.
  if (child === undefined) process.exit(128 + (signal === "SIGINT" ? 2 : signal === "SIGHUP" ? 1 : 15))
}
for (const signal of forwarded) process.on(signal, () => stop(signal))
const watcher = setInterval(() => {
  if (watched.some((pid) => !isAlive(pid)) || (watched.length > 0 && process.ppid !== watched[0])) {
    stop("SIGTERM")
  }
}, watchEveryMs)

const run = (args) => {
  child = spawn(process.execPath, args, { cwd: root, stdio: "inherit" })
  return new Promise((resolvePromise) => child.once("exit", (code, signal) => resolvePromise({ code, signal })))
}

// `--no-build`: a checkout built already (a deployment) starts the server as it is.
const skipBuild = process.argv[2] === "--no-build"
if (!skipBuild) {
  const build = await run([join(root, "scripts", "build-server.mjs")])
  if (build.code !== 0 || stopping !== undefined) process.exit(build.code ?? 1)
}
const server = await run([...serverArguments, join(root, "apps", "server", "dist", "main.js")])
clearInterval(watcher)
if (server.signal !== null) {
  // Exit as the server did: by its signal, with this process's own handlers out of the way.
  for (const signal of forwarded) process.removeAllListeners(signal)
  process.kill(process.pid, server.signal)
}
process.exit(server.code ?? 1)
