import { Activity, ActivitySummary } from "@club/core"
import { recordFromRow } from "../shared/rowReader.ts"

export const activityFromRow = recordFromRow(Activity)

/** `SELECT id, name FROM activities` */
export const activitySummaryFromRow = recordFromRow(ActivitySummary)
