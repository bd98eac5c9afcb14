import { Context, Effect, Layer, Option } from "effect"
import { EntityNotFound } from "../domain/Errors.ts"
import { authorize } from "../domain/Permissions.ts"
import type { EventId, WebhookCreate, WebhookId } from "../domain/Webhook.ts"
import { WebhookRepository } from "../ports/WebhookRepository.ts"
import { traced } from "../tracing/traced.ts"

/** How many attempts the delivery log answers at most. */
export const maxLoggedAttempts = 200

const make = Effect.gen(function*() {
  const repository = yield* WebhookRepository
  const found = <A>(id: WebhookId, value: Option.Option<A>) =>
    Option.isNone(value) ? Effect.fail(new EntityNotFound({ entity: "Webhook", id })) : Effect.succeed(value.value)

  return {
    register: traced("WebhookService.register")(function*(input: WebhookCreate) {
      yield* authorize("webhook.manage")
      return yield* repository.register(input)
    }),
    list: traced("WebhookService.list")(function*() {
      yield* authorize("webhook.manage")
      return yield* repository.list()
    }),
    remove: traced("WebhookService.remove")(function*(id: WebhookId) {
      yield* authorize("webhook.manage")
      if (!(yield* repository.remove(id))) return yield* new EntityNotFound({ entity: "Webhook", id })
    }),
    /** The delivery log: the latest attempts, most recent first. */
    attempts: traced("WebhookService.attempts")(function*(id: WebhookId) {
      yield* authorize("webhook.manage")
      return yield* found(id, yield* repository.attempts(id, maxLoggedAttempts))
    }),
    /** Delivers the webhook's events again from `fromEventId` on (1: all of them); answers how many. */
    replay: traced("WebhookService.replay")(function*(id: WebhookId, fromEventId: EventId) {
      yield* authorize("webhook.manage")
      return yield* found(id, yield* repository.replay(id, fromEventId))
    })
  }
})

/** Webhooks that admins register to hear the attendance events (issue 18). */
export class WebhookService extends Context.Service<WebhookService, Effect.Success<typeof make>>()(
  "@club/core/WebhookService"
) {
  static readonly layer = Layer.effect(WebhookService, make)
}
