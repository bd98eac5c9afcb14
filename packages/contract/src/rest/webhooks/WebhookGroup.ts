import { DeliveryAttempt, EventId, Webhook, WebhookCreate, WebhookId } from "@club/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { documented } from "../shared/documented.ts"
import { created, idempotent, listOf, noContent, tag } from "../shared/endpointParts.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { operation } from "../shared/operation.ts"
import { pathId } from "../shared/pathId.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { strictBodies } from "../shared/strictBodies.ts"

export const WebhookCreateBody = documented(
  Schema.Struct(WebhookCreate.fields),
  "WebhookCreate",
  "Where to deliver the attendance events (an absolute http or https URL), and the secret (16 to 200 characters) their signatures are made with. The secret is never answered.",
  [{ url: "https://messaging.example.org/club-events", secret: "a-long-random-secret-0123456789" }]
)

export const WebhookDto = documented(Schema.Struct(Webhook.fields), "Webhook", "A registered webhook.", [{
  id: 1,
  url: "https://messaging.example.org/club-events"
}])

export const DeliveryAttemptDto = documented(
  Schema.Struct(DeliveryAttempt.fields),
  "DeliveryAttempt",
  "One attempt to deliver an event: when (an instant in UTC), the receiver's status (null when none came: a timeout, a refused connection), and whether it counted as delivered (a 2xx).",
  [{
    eventId: 12,
    sessionId: 7,
    groupId: null,
    attempt: 2,
    at: "2026-11-24T19:02:11.517Z",
    statusCode: 204,
    delivered: true,
    error: null
  }]
)

export const ReplayedDto = documented(
  Schema.Struct({ replayed: Schema.Int }),
  "Replayed",
  "How many deliveries were made due again.",
  [{ replayed: 3 }]
)

const delivery =
  "Each event is POSTed as JSON `{\"id\", \"type\", \"sessionId\", \"occurredAt\", \"data\"}` (`type`: `reply`, `promotion`, `cancellation` or `presence`), or, for a membership started or ended (issue 41), `{\"id\", \"type\", \"groupId\", \"occurredAt\", \"data\"}` (`type`: `membershipStarted` or `membershipEnded`; `data`: `membershipId`, `athleteId`, `from`, `until`) signed as the Standard Webhooks specification says (https://www.standardwebhooks.com): the headers `webhook-id` (the event's id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of \"<id>.<timestamp>.<body>\">`, keyed with the bytes of a `whsec_<base64>` secret, or else with the secret's UTF-8 bytes: a receiver then gives its library `whsec_` + base64 of the secret), so a receiver verifies it with that specification's libraries, which refuse a timestamp more than five minutes away (a replayed request). The former headers `Club-Event-Id`, `Club-Timestamp` and `Club-Signature: v1=<hex HMAC-SHA256 of \"<timestamp>.<body>\">` are still sent, deprecated, until version 0.3. docs/events.md is the catalogue of every event type and its payload. A 2xx answer delivers it; anything else (a redirect is not followed), or no answer within the timeout, is retried with exponential backoff up to WEBHOOK_MAX_ATTEMPTS attempts, then given up until a replay; a receiver that fails is left alone until its retry is due, and no receiver has more than one delivery in flight, so one that does not answer delays no other. Events of one session, and of one group, are delivered in order (the next waits for the one before); two instances never deliver one event at the same time. See docs/attendance.md."

/** Issue 18's webhooks under `/attendance/webhooks` (ADMIN): other systems hear of attendance changes. */
export class WebhookGroup extends HttpApiGroup.make("webhooks").add(
  HttpApiEndpoint.post("registerWebhook", "/attendance/webhooks", {
    payload: WebhookCreateBody,
    success: created(WebhookDto),
    error: [InvalidRequest, Forbidden, Conflict]
  }).annotateMerge(operation(
    "Register a webhook",
    `Every attendance event written from now on is delivered to it. The URL must lead to public addresses only: 400 naming \`url\` when it is not http or https, or its host is or resolves to a private, loopback, link-local, unique-local, unspecified, multicast, broadcast or shared (100.64/10) address, in any spelling (\`0x7f000001\`, \`127.1\`, \`::ffff:127.0.0.1\`), unless the operator allowed its network (WEBHOOK_ALLOWED_NETWORKS); each delivery checks again the address it connects to. 409 when WEBHOOK_MAX_REGISTRATIONS webhooks are registered already. ${delivery} ${idempotent}`,
    "webhook.manage"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("webhooks", "/attendance/webhooks", {
    success: listOf(WebhookDto, "Every webhook, by id."),
    error: Forbidden
  }).annotateMerge(operation("List webhooks", "Every registered webhook, by id.", "webhook.manage")),
  HttpApiEndpoint.delete("removeWebhook", "/attendance/webhooks/:id", {
    params: { id: pathId(WebhookId) },
    success: noContent("Removed, with its deliveries and their log."),
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "Remove a webhook",
    `Nothing more is delivered to it. 404 when there is no such webhook. ${idempotent}`,
    "webhook.manage"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("deliveries", "/attendance/webhooks/:id/deliveries", {
    params: { id: pathId(WebhookId) },
    success: listOf(DeliveryAttemptDto, "The latest attempts, most recent first."),
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "A webhook's delivery log",
    "The latest delivery attempts to the webhook (at most 200), most recent first. 404 when there is no such webhook.",
    "webhook.manage"
  )),
  HttpApiEndpoint.post("replay", "/attendance/webhooks/:id/replay", {
    params: { id: pathId(WebhookId) },
    query: {
      fromEventId: Schema.optionalKey(
        pathId(EventId).annotate({
          description: "The first event to deliver again (default: the webhook's first)."
        })
      )
    },
    success: ReplayedDto,
    error: [InvalidRequest, NotFound, Forbidden]
  }).annotateMerge(operation(
    "Deliver a webhook's events again",
    `Makes every delivery of the webhook from \`fromEventId\` on due again, delivered or not, in the same order and with the same event ids (a receiver may already have some: it tells them by \`webhook-id\`). 404 when there is no such webhook. ${idempotent}`,
    "webhook.manage"
  )).middleware(Idempotency)
).middleware(RawInput).middleware(Authentication).annotate(...strictBodies).annotateMerge(tag(
  "Attendance: webhooks",
  "Issue 18: admins register webhooks that receive the attendance events (replies, promotions, cancellations, marks), signed, retried, in order per session."
)) {}
