import { type ChildProcess, spawn } from "node:child_process"
import { freePort } from "@club/test-support"
import { prismCli, quietToolEnvironment } from "./tools.ts"

/**
 * Stoplight Prism as a validating proxy: every request is forwarded to the server as it is, and
 * Prism checks the request and the answer against the OpenAPI document, reporting what does not
 * match in the `sl-violations` header of the answer it passes back (it changes nothing else:
 * without `--errors`, it never answers in the server's place).
 */
export interface Prism {
  readonly url: string
  readonly output: Array<string>
  readonly stop: () => Promise<void>
}

export interface Violation {
  readonly location: ReadonlyArray<string>
  readonly severity: string
  readonly code?: string | number
  readonly message: string
}

/** The violations Prism found in a request or its answer. */
export const violationsOf = (headers: Headers): ReadonlyArray<Violation> => {
  const header = headers.get("sl-violations")
  return header === null ? [] : JSON.parse(header) as ReadonlyArray<Violation>
}

export const startPrism = async (documentUrl: string, upstream: string): Promise<Prism> => {
  const port = await freePort()
  const child: ChildProcess = spawn(
    process.execPath,
    [prismCli(), "proxy", documentUrl, upstream, "--host", "127.0.0.1", "--port", String(port)],
    { env: { ...process.env, ...quietToolEnvironment }, stdio: ["ignore", "pipe", "pipe"] }
  )
  const output: Array<string> = []
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const listening = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(...chunk.toString("utf8").split("\n"))
      if (output.some((line) => line.includes("Prism is listening"))) resolve()
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    void exited.then(() => reject(new Error(`Prism exited before it listened:\n${output.join("\n")}`)))
    setTimeout(() => reject(new Error(`Prism did not listen within 60 s:\n${output.join("\n")}`)), 60_000).unref()
  })
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    await exited
  }
  await listening.catch(async (error: unknown) => {
    await stop()
    throw error
  })
  return { url: `http://127.0.0.1:${port}`, output, stop }
}
