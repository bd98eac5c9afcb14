import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"

/**
 * `POST /activite/create`'s success: the seed's plain text `Activity created`, and where the new
 * activity can be read, `/activite/<id>` (RFC 9110, section 15.3.2: a 201 names what it created).
 * The seed's activity answers say `id: null`, so the `Location` header is how a client learns the
 * id of the activity it created; the typed client reads it as `location`.
 */
export const ActivityCreated = Schema.Struct({
  message: Schema.String,
  location: Schema.String
})
export type ActivityCreated = typeof ActivityCreated.Type

/** The path an activity is read at: its `Location`. */
export const activityLocation = (id: number): string => `/activite/${id}`

export const ActivityCreatedWithLocation = ActivityCreated.pipe(
  HttpApiSchema.encodeToWithHeaders({
    body: Schema.String.pipe(HttpApiSchema.asText(), HttpApiSchema.status(201)),
    headers: { location: Schema.String }
  }, {
    decode: ({ body, headers }) => ({ message: body, location: headers.location }),
    encode: ({ location, message }) => ({ body: message, headers: { location } })
  })
)
