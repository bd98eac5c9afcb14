import { Coach } from "@club/core"
import { recordFromRow } from "./rowReader.ts"

/** `SELECT id, name FROM coaches` */
export const coachFromRow = recordFromRow(Coach)
