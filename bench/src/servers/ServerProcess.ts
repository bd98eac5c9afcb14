import { join } from "node:path"
import { inGroup } from "@club/test-support"
import { type ChildGroup, startChild } from "../process/ChildGroup.ts"
import { nodeBinary, tmpDir } from "../process/paths.ts"
import { waitForHttp } from "../process/waitForHttp.ts"

export interface ServerProcess {
  readonly name: string
  readonly url: string
  readonly child: ChildGroup
}

export interface ServerStart {
  readonly name: string
  readonly script: string
  readonly port: number
  readonly env: Readonly<Record<string, string>>
  readonly nodeArgs?: ReadonlyArray<string>
  /** The path answered once the server is ready. */
  readonly readyPath: string
  /** A cgroup (its folder) the server joins before Node starts (`memoryLimit` of @club/test-support). */
  readonly cgroup?: string
}

/** Starts a Node server as a process group of its own and waits until it answers. */
export const startServer = async (options: ServerStart): Promise<ServerProcess> => {
  const url = `http://127.0.0.1:${options.port}`
  const [command, ...args] = inGroup([nodeBinary, ...(options.nodeArgs ?? []), options.script], options.cgroup)
  const child = startChild({
    name: options.name,
    command: command!,
    args,
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: process.env["HOME"] ?? "",
      ...options.env,
      PORT: String(options.port),
      HOST: "127.0.0.1"
    },
    logFile: join(tmpDir, `${options.name}.log`)
  })
  try {
    await waitForHttp(`${url}${options.readyPath}`, child.exited)
    // Another program on the same port would answer too; ours must still be running.
    await new Promise((resolve) => setTimeout(resolve, 300))
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(`${options.name} exited on start (see bench/.tmp/${options.name}.log)`)
    }
  } catch (error) {
    await child.stop()
    throw error
  }
  return { name: options.name, url, child }
}
