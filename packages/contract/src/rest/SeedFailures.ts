import { Schema, SchemaGetter } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { withoutStackTrace } from "@club/core"

/**
 * The failure bodies the seed pins, kept exactly: plain text, empty, and one 204.
 * Each still decodes to a typed error on the client side.
 */

/** A tagged error carried as its message in a plain-text body, after a fixed prefix. */
const messageAsText = <const Tag extends string>(tag: Tag, prefix: string) => ({
  decode: SchemaGetter.transform((text: string) => ({
    _tag: tag,
    message: text.startsWith(prefix) ? text.slice(prefix.length) : text
  })),
  encode: SchemaGetter.transform((error: { readonly message: string }) => `${prefix}${error.message}`)
})

/** 500 `text/plain` `Error: <message>`: any failure of activity create, update or delete. */
export class ActivityFailed extends withoutStackTrace(Schema.TaggedError<ActivityFailed>()("ActivityFailed", {
  message: Schema.String
})) {}
export const ActivityFailedText = ActivityFailed.pipe(
  Schema.encodeTo(Schema.String, messageAsText("ActivityFailed", "Error: ")),
  HttpApiSchema.asText(),
  HttpApiSchema.status(500)
)

/** 400 `text/plain` failure message: any failure of a session create. */
export class SessionCreateFailed extends withoutStackTrace(Schema.TaggedError<SessionCreateFailed>()("SessionCreateFailed", {
  message: Schema.String
})) {}
export const SessionCreateFailedText = SessionCreateFailed.pipe(
  Schema.encodeTo(Schema.String, messageAsText("SessionCreateFailed", "")),
  HttpApiSchema.asText(),
  HttpApiSchema.status(400)
)

/** 404 `text/plain` failure message: session read or delete of an unknown id. */
export class SessionNotFoundText extends withoutStackTrace(Schema.TaggedError<SessionNotFoundText>()("SessionNotFoundText", {
  message: Schema.String
})) {}
export const SessionNotFoundTextBody = SessionNotFoundText.pipe(
  Schema.encodeTo(Schema.String, messageAsText("SessionNotFoundText", "")),
  HttpApiSchema.asText(),
  HttpApiSchema.status(404)
)

/** 404 with an empty body: activity and athlete reads. */
export class NotFoundEmpty extends withoutStackTrace(Schema.TaggedError<NotFoundEmpty>()("NotFoundEmpty", {})) {}
export const NotFoundEmptyBody = NotFoundEmpty.pipe(
  HttpApiSchema.status(404),
  HttpApiSchema.asNoContent({ decode: () => new NotFoundEmpty() })
)

/** 204 with an empty body: any failure of an athlete update (the seed's quirk). */
export class AthleteUpdateFailed extends withoutStackTrace(Schema.TaggedError<AthleteUpdateFailed>()("AthleteUpdateFailed", {})) {}
export const AthleteUpdateFailedBody = AthleteUpdateFailed.pipe(
  HttpApiSchema.status(204),
  HttpApiSchema.asNoContent({ decode: () => new AthleteUpdateFailed() })
)
