import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/** Linux's cgroup (version 1) memory controller, where a test may make groups of its own (root). */
const memoryController = "/sys/fs/cgroup/memory"

export interface MemoryLimit {
  /** The group's folder: a process joins it by writing its pid to `cgroup.procs`. */
  readonly path: string
  /** How many processes of the group the kernel killed for lack of memory. */
  readonly oomKills: () => number
  /** The group's highest use, page cache included, in bytes. */
  readonly peakBytes: () => number
  /** Removes the group; its processes must have ended. */
  readonly remove: () => void
}

/**
 * A memory cgroup that holds its processes to `bytes` of memory, swap included (a container's
 * `--memory`, a systemd unit's `MemoryMax` with no swap): past it the kernel reclaims page cache
 * (the `node` binary's pages among it) and then kills. Undefined where none can be made (not root,
 * no cgroup v1 memory controller).
 */
export const memoryLimit = (name: string, bytes: number): MemoryLimit | undefined => {
  const path = join(memoryController, `${name}-${process.pid}-${Date.now()}`)
  try {
    mkdirSync(path)
  } catch {
    return undefined
  }
  const write = (file: string, value: number) => writeFileSync(join(path, file), String(value))
  write("memory.limit_in_bytes", bytes)
  if (existsSync(join(path, "memory.memsw.limit_in_bytes"))) write("memory.memsw.limit_in_bytes", bytes)
  const read = (file: string) => readFileSync(join(path, file), "utf8")
  return {
    path,
    oomKills: () => Number(/^oom_kill (\d+)$/m.exec(read("memory.oom_control"))?.[1] ?? 0),
    peakBytes: () => Number(read("memory.max_usage_in_bytes")),
    remove: () => rmdirSync(path)
  }
}

/**
 * `command` made to join the cgroup `path` before it starts, where one is given: a shell writes its
 * own pid to the group, then becomes the command, so nothing it allocates is charged elsewhere.
 */
export const inGroup = (command: ReadonlyArray<string>, path: string | undefined): ReadonlyArray<string> =>
  path === undefined ? command : ["/bin/sh", "-c", `echo $$ > "$0/cgroup.procs" && exec "$@"`, path, ...command]
