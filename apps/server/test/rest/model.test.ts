import { modelBasedSuite, modelFindings, modelTimeZone } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

// A smaller budget than in process: each command is a few requests over the wire to a server on the
// embedded database and on PostgreSQL (skipped where none answers).
await onEveryDatabase(
  "The model-based suite (issue 36), over the wire",
  (club, database) => {
    modelBasedSuite(
      club,
      { numRuns: 6, maxCommands: 15, timeoutMs: 240_000 },
      `over the wire, ${database.kind} database`
    )
    modelFindings(club)
  },
  { env: { CLUB_TIMEZONE: modelTimeZone } }
)
