import { temporaryTestDatabase } from "@club/postgres-adapter/testing"
import { PgClient } from "@effect/sql-pg"
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, describe, expect, it } from "vitest"

const database = await temporaryTestDatabase({ prefix: "club_replay" })
const folder = await mkdtemp(join(tmpdir(), "club-erasures-"))
afterAll(async () => {
  await database?.drop()
  await rm(folder, { recursive: true, force: true })
})

const dataTransferJs = fileURLToPath(new URL("../../dist/dataTransfer.js", import.meta.url))
/** `pnpm db:erasures` / `db:replay-erasures` after their build step, on the temporary database. */
const command = (name: "erasures" | "replay-erasures", file: string) =>
  promisify(execFile)(process.execPath, [dataTransferJs, name, file], {
    env: { ...process.env, DATABASE_URL: database!.url, LOG_LEVEL: "warn" },
    timeout: 300_000
  })

const query = (statement: string) =>
  Effect.runPromise(
    Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql.unsafe<Record<string, unknown>>(statement)).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(database!.url), maxConnections: 1 }))
    )
  )

describe.skipIf(database === undefined)(
  "Replaying erasures after a restore (docs/privacy.md) [PostgreSQL server]",
  () => {
    it(
      "erases again each person of a ledger kept outside the backup; twice changes nothing; the ledger is written back",
      async () => {
        const ledgerFile = join(folder, "erasures.json")
        // Migrates the empty database, whose ledger is empty.
        await command("erasures", ledgerFile)
        expect(JSON.parse(await readFile(ledgerFile, "utf8"))).toEqual([])
        // The restored backup holds a person erased after it was taken; the ledger kept outside says so.
        const [restored] = await query(`INSERT INTO users (name, email, role, password_hash)
      VALUES ('restored-person', 'restored@family.test', 'ADMIN', 'x') RETURNING id::int AS id`)
        const userId = Number(restored!["id"])
        // And a child no user links, erased alone (decision 0300): its ledger row has no user.
        const [child] = await query(`INSERT INTO athletes (name, categorie) VALUES ('restored-child', 'U11')
      RETURNING id::int AS id`)
        const athleteId = Number(child!["id"])
        await writeFile(
          ledgerFile,
          JSON.stringify([
            { userId, athleteId: null, coachId: null, adminId: null, erasedAtMs: 1 },
            { userId: null, athleteId, coachId: null, adminId: null, erasedAtMs: 2 }
          ])
        )
        await command("replay-erasures", ledgerFile)
        const [erased] = await query(`SELECT name, email, password_hash FROM users WHERE id = ${userId}`)
        expect(erased).toMatchObject({ email: null, password_hash: "erased" })
        expect(String(erased!["name"])).not.toContain("restored")
        expect(await query(`SELECT name, categorie FROM athletes WHERE id = ${athleteId}`)).toEqual([
          { name: null, categorie: null }
        ])
        await command("replay-erasures", ledgerFile)
        expect((await query(`SELECT name FROM users WHERE id = ${userId}`))[0]).toEqual({ name: erased!["name"] })
        expect(await query(`SELECT count(*)::int AS count FROM attendance_events WHERE type = 'personErased'`)).toEqual(
          [
            { count: 2 }
          ]
        )
        await command("erasures", ledgerFile)
        expect(JSON.parse(await readFile(ledgerFile, "utf8"))).toMatchObject([{ userId }, { userId: null, athleteId }])
      },
      600_000
    )
  }
)
