// `pnpm db:export <file>` and `pnpm db:import <file>`: the way from the embedded database (DATA_DIR)
// to a PostgreSQL server (DATABASE_URL). The export is a SQL file of the rows
// (@club/postgres-adapter's dataTransfer.ts); the import migrates the server's database as a start
// of the server would, then restores the rows in one transaction.
import {
  EmbeddedPostgres,
  embeddedDataDir,
  exportData,
  importData,
  inMemory,
  migrated,
  PostgresServer
} from "@club/postgres-adapter"
import { existsSync } from "node:fs"
import { open, readFile } from "node:fs/promises"
import { join, resolve } from "node:path"
import { Effect, Exit, Redacted } from "effect"
import { failureReason } from "./shared/failureReason.ts"

const usage = "usage: db:export <file> (reads DATA_DIR, ./data by default) | db:import <file> (into DATABASE_URL)"

/** A failure an operator can act on: one line on stderr, exit 1. */
const stop = (message: string): never => {
  process.stderr.write(`${message}\n`)
  process.exit(1)
}

/** Runs a transfer; its failure is said in one line, from its innermost error (as a failed start is). */
const run = async <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  return stop(`db:${process.argv[2]} failed: ${failureReason(exit.cause)}`)
}

const exportTo = async (file: string) => {
  const dataDir = process.env["DATA_DIR"] || "./data"
  if (dataDir === inMemory) stop("DATA_DIR=memory:// keeps nothing to export")
  const folder = embeddedDataDir(dataDir)
  if (!existsSync(join(folder, "PG_VERSION"))) stop(`no embedded database in ${resolve(folder)}: is DATA_DIR right?`)
  // PGlite leaves it while the database is open: two processes on one data directory would break it.
  if (existsSync(join(folder, "postmaster.pid"))) {
    stop(`the embedded database in ${resolve(folder)} is open (postmaster.pid): stop the server first`)
  }
  // The rows include password hashes: the file is its owner's only.
  const handle = await open(file, "w", 0o600)
  try {
    await run(
      exportData((lines) => Effect.promise(() => handle.write(lines)).pipe(Effect.asVoid)).pipe(
        Effect.provide(migrated(EmbeddedPostgres({ dataDir: folder })))
      )
    )
  } finally {
    await handle.close()
  }
  process.stderr.write(`exported the embedded database in ${resolve(folder)} to ${file}\n`)
}

const importFrom = async (file: string) => {
  const url = process.env["DATABASE_URL"]
  if (url === undefined || url === "") stop("DATABASE_URL is not set: the database to import into")
  const text = await readFile(file, "utf8")
  const statements = await run(
    importData(text).pipe(Effect.provide(migrated(PostgresServer(Redacted.make(url!)))))
  )
  process.stderr.write(`imported ${file} (${statements} statements) into the database of DATABASE_URL\n`)
}

const [command, file] = process.argv.slice(2)
if (file === undefined) stop(usage)
try {
  if (command === "export") await exportTo(file!)
  else if (command === "import") await importFrom(file!)
  else stop(usage)
} catch (error) {
  stop(`db:${command} failed: ${error instanceof Error ? error.message : String(error)}`)
}
