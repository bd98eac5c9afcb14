import { ActivityId } from "@club/core"
import { Schema, SchemaGetter } from "effect"
import { HttpApiSchema } from "effect/http-api"

/** The path an activity is read at: its `Location`. */
export const activityLocation = (id: ActivityId): string => `/activite/${id}`

/**
 * The id at the end of an activity's `Location`: `/activite/<id>` as the server writes it, or that
 * path behind a prefix or an origin, as a proxy in front may rewrite it.
 */
const idInLocation = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/?#]*)?(?:\/[^?#]*)?\/activite\/([1-9][0-9]{0,15})$/iu

const ActivityLocation = Schema.String.check(Schema.makeFilter(
  (location: string) =>
    idInLocation.test(location) || `Expected the path of an activity, /activite/<id>, got ${JSON.stringify(location)}`,
  { expected: "the path of an activity, /activite/<id>", toJsonSchema: () => ({ format: "uri-reference" }) }
)).annotate({
  description: "Where the new activity is read: `/activite/<id>`, its id (the activity answers say `id: null`).",
  examples: ["/activite/12"]
}).pipe(Schema.decodeTo(ActivityId, {
  decode: SchemaGetter.transform((location: string) => Number(idInLocation.exec(location)![1])),
  encode: SchemaGetter.transform((id: number) => activityLocation(ActivityId.make(id)))
}))

/**
 * `POST /activite/create`'s success: the seed's plain text `Activity created`, and the new
 * activity's id. The seed's activity answers say `id: null`, so the id travels in the `Location`
 * header, `/activite/<id>` (RFC 9110, section 15.3.2: a 201 names what it created); the typed
 * client reads it back as `id`.
 */
export const ActivityCreated = Schema.Struct({
  message: Schema.Literal("Activity created"),
  id: ActivityId
})
export type ActivityCreated = typeof ActivityCreated.Type

export const ActivityCreatedWithLocation = ActivityCreated.pipe(
  HttpApiSchema.encodeToWithHeaders({
    body: Schema.Literal("Activity created").annotate({
      description: "Created: the seed's plain text, and the new activity's path in `Location`."
    }).pipe(HttpApiSchema.asText(), HttpApiSchema.status(201)),
    headers: { location: ActivityLocation }
  }, {
    decode: ({ body, headers }) => ({ message: body, id: headers.location }),
    encode: ({ id, message }) => ({ body: message, headers: { location: id } })
  })
)
