import { type EventId, WebhookCreate, WebhookService } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { problems } from "../shared/problems.ts"
import { ServedApi } from "../ServedApi.ts"

/** Issue 18's webhooks under `/attendance/webhooks`: every failure is its category's problem. */
export const WebhookHandlers = HttpApiBuilder.group(
  ServedApi,
  "webhooks",
  Effect.fn(function*(handlers) {
    const webhooks = yield* WebhookService
    return handlers
      .handle(
        "registerWebhook",
        ({ payload }) => webhooks.register(new WebhookCreate(payload, { disableChecks: true })).pipe(problems)
      )
      .handle("webhooks", () => webhooks.list().pipe(problems))
      .handle("removeWebhook", ({ params }) => webhooks.remove(params.id).pipe(problems))
      .handle("deliveries", ({ params }) => webhooks.attempts(params.id).pipe(problems))
      .handle(
        "replay",
        ({ params, query }) =>
          webhooks.replay(params.id, query.fromEventId ?? (1 as EventId)).pipe(
            Effect.map((replayed) => ({ replayed })),
            problems
          )
      )
  })
)
