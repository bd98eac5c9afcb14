import { afterAll, it } from "vitest"
import { expectProblem } from "@club/test-support/expectations"
import { type GroupSeeder, invitationEndpoints } from "@club/test-support/rest"
import { openSql, type Sql } from "../reliability/support/Sql.ts"
import { onEveryDatabase } from "./support/club.ts"

/**
 * Issue 41's invitations over the wire. Until the group endpoints exist (a helper of its own builds
 * them), groups, memberships and guardianships are written with SQL on a second connection to the
 * server's database; the embedded database belongs to the server's process and takes no second
 * connection, so there the suite waits for the endpoints (it runs in process on the in-memory
 * store, and the repository contract runs the same rules on PGlite).
 */
await onEveryDatabase("Sessions open to a group (issue 41)", (club, database) => {
  let sql: Sql | undefined
  const db = async () => sql ??= await openSql(club().databaseUrl!)
  afterAll(async () => {
    await sql?.close()
  })
  const idOf = (rows: ReadonlyArray<{ id: string }>) => Number(rows[0]!.id)
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`

  const seeder: GroupSeeder = {
    group: async (name, coachIds = [], parentId) => {
      const s = await db()
      const root = idOf(
        await s.query<{ id: string }>(`WITH found AS (SELECT id FROM groups WHERE parent_id IS NULL),
          made AS (INSERT INTO groups (name, parent_id) SELECT 'Club', NULL WHERE NOT EXISTS (SELECT 1 FROM found)
            RETURNING id)
          SELECT id FROM found UNION ALL SELECT id FROM made`)
      )
      const id = idOf(
        await s.query<{ id: string }>(
          `INSERT INTO groups (name, parent_id) VALUES (${literal(name)}, ${parentId ?? root}) RETURNING id`
        )
      )
      for (const coachId of coachIds) {
        await s.query(`INSERT INTO group_coaches (group_id, coach_id) VALUES (${id}, ${coachId})`)
      }
      return id
    },
    member: async (groupId, athleteId, from, until) =>
      idOf(
        await (await db()).query<{ id: string }>(
          `INSERT INTO memberships (group_id, athlete_id, from_date, until_date)
           VALUES (${groupId}, ${athleteId}, ${literal(from)}, ${until === undefined ? "NULL" : literal(until)})
           RETURNING id`
        )
      ),
    end: async (membershipId, until) => {
      await (await db()).query(`UPDATE memberships SET until_date = ${literal(until)} WHERE id = ${membershipId}`)
    },
    guard: async (userId, athleteId) => {
      await (await db()).query(`INSERT INTO guardianships (user_id, athlete_id) VALUES (${userId}, ${athleteId})`)
    }
  }

  if (database.kind === "server") invitationEndpoints(club, () => seeder)

  it("the guardian feed answers 404 for an unknown token", async () => {
    expectProblem(await club().anonymous.get(`/planning/feeds/${"x".repeat(43)}/guardian.ics`), 404)
  })
})
