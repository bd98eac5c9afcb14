// `buf breaking` against this package on the main branch; skipped while main has no proto to compare with.
import { execFileSync, spawnSync } from "node:child_process"
import path from "node:path"

const git = (...args) => spawnSync("git", args, { encoding: "utf8" })

const root = git("rev-parse", "--show-toplevel").stdout.trim()
const subdir = path.relative(root, process.cwd()).split(path.sep).join("/")
const protoOnMain = git("cat-file", "-e", `main:${subdir}/proto/todo.proto`)

if (root === "" || protoOnMain.status !== 0) {
  console.log(`buf breaking: skipped, the main branch has no ${subdir}/proto/todo.proto yet`)
  process.exit(0)
}

const against = `${path.relative(process.cwd(), root) || "."}/.git#branch=main,subdir=${subdir}`
console.log(`buf breaking --against '${against}'`)
try {
  execFileSync("buf", ["breaking", "--against", against], { stdio: "inherit" })
} catch (error) {
  process.exit(typeof error.status === "number" ? error.status : 1)
}
