import { Role, User } from "@club/core"
import { Schema } from "effect"
import { Int64 } from "../sql/Int64.ts"

/** See userColumns. */
export const UserFromRow = Schema.Struct({
  id: Int64,
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  role: Role,
  coachId: Schema.NullOr(Int64),
  athleteId: Schema.NullOr(Int64),
  adminId: Schema.NullOr(Int64)
}).pipe(Schema.decodeTo(User))

/** The columns that only credential checks read, next to the user's. */
export const CredentialsRow = Schema.Struct({
  passwordHash: Schema.String,
  tokensValidAfter: Int64
})
