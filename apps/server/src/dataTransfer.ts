// `pnpm db:export <file>` and `pnpm db:import <file>`: the way from the embedded database (DATA_DIR)
// to a PostgreSQL server (DATABASE_URL). The export is a SQL file of the rows
// (@club/postgres-adapter's dataTransfer.ts); the import migrates the server's database as a start
// of the server would, then restores the rows in one transaction.
// `pnpm db:erasures <file>` and `pnpm db:replay-erasures <file>` (docs/privacy.md): the ledger of
// erased people (ids only) written to a file kept outside the backups, and, after a restore, each
// of its people erased again, on DATABASE_URL when set, else the embedded database of DATA_DIR.
import {
  EmbeddedPostgres,
  embeddedDataDir,
  exportData,
  importData,
  inMemory,
  migrated,
  PostgresServer,
  RepositoriesLive
} from "@club/postgres-adapter"
import { ErasedPerson, erasureBatchSize, PersonDataRepository } from "@club/core"
import { existsSync } from "node:fs"
import { open, readFile } from "node:fs/promises"
import { join, resolve } from "node:path"
import { Effect, Exit, Layer, Redacted, Schema } from "effect"
import { failureReason } from "./shared/failureReason.ts"

const usage =
  "usage: db:export <file> (reads DATA_DIR, ./data by default) | db:import <file> (into DATABASE_URL) | db:erasures <file> | db:replay-erasures <file>"

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

/** The service's database: DATABASE_URL's server when set, else the embedded one of DATA_DIR (migrated either way). */
const database = () => {
  const url = process.env["DATABASE_URL"]
  if (url !== undefined && url !== "") return migrated(PostgresServer(Redacted.make(url)))
  const dataDir = process.env["DATA_DIR"] || "./data"
  if (dataDir === inMemory) return stop("DATA_DIR=memory:// keeps no erasures")
  return migrated(EmbeddedPostgres({ dataDir: embeddedDataDir(dataDir) }))
}

const Ledger = Schema.fromJsonString(Schema.Array(ErasedPerson))

const withPeople = <A, E>(effect: Effect.Effect<A, E, PersonDataRepository>) =>
  effect.pipe(Effect.provide(RepositoriesLive.pipe(Layer.provide(database()))))

const erasuresTo = async (file: string) => {
  const ledger = await run(withPeople(Effect.flatMap(Effect.service(PersonDataRepository), (p) => p.erasures())))
  const handle = await open(file, "w", 0o600)
  try {
    await handle.write(Schema.encodeSync(Ledger)(ledger))
  } finally {
    await handle.close()
  }
  process.stderr.write(`wrote ${ledger.length} erasures to ${file}\n`)
}

const replayErasures = async (file: string) => {
  const ledger = Schema.decodeUnknownSync(Ledger)(await readFile(file, "utf8"))
  // Erasing is idempotent: the people the restored database had already erased change nothing.
  await run(
    withPeople(
      Effect.forEach(
        ledger,
        (erased) =>
          Effect.flatMap(
            Effect.service(PersonDataRepository),
            // A row with no user is an athlete erased alone (decision 0300): replayed by its athlete.
            (p) =>
              erased.userId !== null
                ? p.erase(erased.userId, erasureBatchSize)
                : erased.athleteId !== null
                ? p.eraseAthlete(erased.athleteId, erasureBatchSize)
                : Effect.void
          ).pipe(
            // A person the restored database never had (created after the backup) has nothing to erase.
            Effect.catchTag("EntityNotFound", () => Effect.void)
          ),
        { discard: true }
      )
    )
  )
  process.stderr.write(`replayed ${ledger.length} erasures from ${file}\n`)
}

const [command, file] = process.argv.slice(2)
if (file === undefined) stop(usage)
try {
  if (command === "export") await exportTo(file!)
  else if (command === "import") await importFrom(file!)
  else if (command === "erasures") await erasuresTo(file!)
  else if (command === "replay-erasures") await replayErasures(file!)
  else stop(usage)
} catch (error) {
  stop(`db:${command} failed: ${error instanceof Error ? error.message : String(error)}`)
}
