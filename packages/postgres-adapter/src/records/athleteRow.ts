import { Athlete } from "@club/core"
import { recordFromRow } from "../shared/rowReader.ts"

/** `SELECT id, name, categorie, niveau FROM athletes` */
export const athleteFromRow = recordFromRow(Athlete)
