import { Session, SessionSummary } from "@club/core"
import { recordFromRow } from "../shared/rowReader.ts"

/**
 * A session with its athlete and activity ids aggregated in the same row: `creneau` from `to_char`
 * with a fixed pattern, the id lists from `ARRAY(SELECT ...)` of `bigint` columns.
 */
export const sessionFromRow = recordFromRow(Session)

/** `SELECT id, name FROM sessions` */
export const sessionSummaryFromRow = recordFromRow(SessionSummary)
