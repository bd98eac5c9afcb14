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
export class ActivityFailed extends withoutStackTrace(
  Schema.TaggedError<ActivityFailed>()("ActivityFailed", {
    message: Schema.String
  }, {
    description:
      "The seed's answer to any failure of an activity create, update or delete: plain text `Error: <what was wrong>`."
  })
) {}
export const ActivityFailedText = ActivityFailed.pipe(
  Schema.encodeTo(
    Schema.String.check(Schema.isStartingWith("Error: ")).annotate({
      identifier: "ActivityFailureText",
      description:
        "The seed's failure of an activity create, update or delete, whatever the reason (bad input, an unknown activity or session): `Error: ` and what was wrong.",
      examples: ["Error: sessionId: no session with id 99"]
    }),
    messageAsText("ActivityFailed", "Error: ")
  ),
  HttpApiSchema.asText(),
  HttpApiSchema.status(500)
)

/** 400 `text/plain` failure message: any failure of a session create. */
export class SessionCreateFailed extends withoutStackTrace(
  Schema.TaggedError<SessionCreateFailed>()("SessionCreateFailed", {
    message: Schema.String
  }, { description: "The seed's answer to any failure of a session create: plain text naming what was wrong." })
) {}
export const SessionCreateFailedText = SessionCreateFailed.pipe(
  Schema.encodeTo(
    Schema.String.annotate({
      identifier: "SessionCreateFailureText",
      description:
        "The seed's failure of a session create, whatever the reason (bad input, unknown ids, a supplied id taken): what was wrong, naming the field.",
      examples: ["athleteIds: no athlete with id 99"]
    }),
    messageAsText("SessionCreateFailed", "")
  ),
  HttpApiSchema.asText(),
  HttpApiSchema.status(400)
)

/** 404 `text/plain` failure message: session read or delete of an unknown id. */
export class SessionNotFoundText extends withoutStackTrace(
  Schema.TaggedError<SessionNotFoundText>()("SessionNotFoundText", {
    message: Schema.String
  }, { description: "No session has this id: the seed's plain-text message." })
) {}
export const SessionNotFoundTextBody = SessionNotFoundText.pipe(
  Schema.encodeTo(
    Schema.String.annotate({
      identifier: "SessionNotFoundText",
      description: "The seed's failure of a session read or delete: no session has this id.",
      examples: ["Session not found with id 99"]
    }),
    messageAsText("SessionNotFoundText", "")
  ),
  HttpApiSchema.asText(),
  HttpApiSchema.status(404)
)

/** 404 with an empty body: activity and athlete reads. */
export class NotFoundEmpty extends withoutStackTrace(Schema.TaggedError<NotFoundEmpty>()("NotFoundEmpty", {})) {}
export const NotFoundEmptyBody = NotFoundEmpty.pipe(
  HttpApiSchema.status(404),
  HttpApiSchema.asNoContent({ decode: () => new NotFoundEmpty() }),
  Schema.annotate({ description: "Not found, with an empty body (the seed's answer)." })
)

/** 204 with an empty body: any failure of an athlete update (the seed's quirk). */
export class AthleteUpdateFailed
  extends withoutStackTrace(Schema.TaggedError<AthleteUpdateFailed>()("AthleteUpdateFailed", {}))
{}
export const AthleteUpdateFailedBody = AthleteUpdateFailed.pipe(
  HttpApiSchema.status(204),
  HttpApiSchema.asNoContent({ decode: () => new AthleteUpdateFailed() }),
  Schema.annotate({
    description:
      "The seed's answer to any failure of an athlete update (unknown athlete or session id, bad input): 204 with an empty body, and nothing changed."
  })
)
