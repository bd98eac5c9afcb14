import { Athlete } from "@club/core"
import { Schema } from "effect"
import { Int64 } from "../sql/Int64.ts"

/** `SELECT id, name, categorie, niveau FROM athletes` */
export const AthleteFromRow = Schema.Struct({
  id: Int64,
  name: Schema.NullOr(Schema.String),
  categorie: Schema.NullOr(Schema.String),
  niveau: Schema.NullOr(Schema.String)
}).pipe(Schema.decodeTo(Athlete))
