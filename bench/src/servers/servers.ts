import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { benchDir, serverMain } from "../process/paths.ts"
import { type ServerProcess, startServer } from "./ServerProcess.ts"

export const admin = { name: "admin", password: "bench-admin-password" }
const jwtSecret = "bench-jwt-secret-of-enough-length-0123456789"

export type Database = { readonly kind: "server"; readonly url: string } | {
  readonly kind: "embedded"
  readonly dataDir: string
}

export interface ProjectOptions {
  readonly name: string
  readonly port: number
  readonly database: Database
  /** The build to start (default: BENCH_SERVER_MAIN, or this checkout's). */
  readonly main?: string
  /** Extra flags for node, e.g. `--cpu-prof`. */
  readonly nodeArgs?: ReadonlyArray<string>
  readonly logLevel?: string
  /** More environment for the server. */
  readonly env?: Readonly<Record<string, string>>
  /** A cgroup the server runs in. */
  readonly cgroup?: string
}

/**
 * The Node arguments the server is launched with (apps/server/nodeArguments.json), read beside
 * the build under test so that another checkout's build runs with its own (none where it has no
 * such file).
 */
const serverNodeArguments = (main: string, name = "nodeArguments.json"): ReadonlyArray<string> => {
  const file = join(dirname(main), "..", name)
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) as ReadonlyArray<string> : []
}

/** The arguments `pnpm start` adds on a host of little memory (`nodeArguments.smallMemory.json`), beside the build. */
export const smallMemoryArguments = (main: string = serverMain): ReadonlyArray<string> =>
  serverNodeArguments(main, "nodeArguments.smallMemory.json")

/** The built server (apps/server/dist/main.js), as an operator starts it. */
export const startProject = (options: ProjectOptions): Promise<ServerProcess> =>
  startServer({
    name: options.name,
    script: options.main ?? serverMain,
    port: options.port,
    readyPath: "/health/ready",
    nodeArgs: [...serverNodeArguments(options.main ?? serverMain), ...(options.nodeArgs ?? [])],
    ...(options.cgroup === undefined ? {} : { cgroup: options.cgroup }),
    env: {
      ...(options.database.kind === "server"
        ? { DATABASE_URL: options.database.url }
        : { DATA_DIR: options.database.dataDir }),
      ADMIN_NAME: admin.name,
      ADMIN_PASSWORD: admin.password,
      JWT_SECRET: jwtSecret,
      LOG_LEVEL: options.logLevel ?? "info",
      ...options.env
    }
  })

/** The bare node:http baseline on the same driver and SQL. */
export const startBaseline = (
  options: { readonly port: number; readonly databaseUrl: string; readonly nodeArgs?: ReadonlyArray<string> }
): Promise<ServerProcess> =>
  startServer({
    name: "baseline",
    script: join(benchDir, "src", "servers", "baseline", "main.ts"),
    port: options.port,
    readyPath: "/health/live",
    nodeArgs: options.nodeArgs ?? [],
    env: { DATABASE_URL: options.databaseUrl, JWT_SECRET: jwtSecret }
  })
