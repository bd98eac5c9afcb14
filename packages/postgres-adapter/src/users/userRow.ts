import { User } from "@club/core"
import { Schema } from "effect"
import { recordFromRow, valuesFromRow } from "../shared/rowReader.ts"

export const userFromRow = recordFromRow(User)

/** The columns that only credential checks read, next to the user's. */
export const credentialsFromRow = valuesFromRow({
  passwordHash: Schema.String,
  tokensValidAfter: Schema.Number
})
