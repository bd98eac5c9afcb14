import { Context, Effect, Layer, Option } from "effect"
import { EntityNotFound, InvalidValue, TooManyWebhooks } from "../shared/Errors.ts"
import { authorize } from "../shared/Permissions.ts"
import type { EventId, WebhookCreate, WebhookId } from "./Webhook.ts"
import { addressRefusal, webhookHost } from "./WebhookDestination.ts"
import { HostResolver } from "./HostResolver.ts"
import { WebhookRepository } from "./WebhookRepository.ts"
import { traced } from "../shared/traced.ts"
import { WebhookSettings } from "./WebhookSettings.ts"

/** How many attempts the delivery log answers at most. */
export const maxLoggedAttempts = 200

const make = Effect.gen(function*() {
  const repository = yield* WebhookRepository
  const resolver = yield* HostResolver
  const found = <A>(id: WebhookId, value: Option.Option<A>) =>
    Option.isNone(value) ? Effect.fail(new EntityNotFound({ entity: "Webhook", id })) : Effect.succeed(value.value)

  /**
   * Fails when the URL leads to an address a delivery may not connect to: its IP literal, or any
   * address its name resolves to now. Each delivery judges again the address it connects to, so a
   * name that later resolves elsewhere (DNS rebinding) gains nothing.
   */
  const refusedDestination = Effect.fnUntraced(function*(url: string, settings: WebhookSettings) {
    const refused = (reason: string) => Effect.fail(new InvalidValue({ field: "url", reason }))
    const destination = webhookHost(url)
    if ("invalid" in destination) return yield* refused(destination.invalid)
    const addresses = destination.address === undefined
      ? yield* resolver.resolve(destination.host)
      : [destination.address]
    for (const address of addresses) {
      const refusal = addressRefusal(address, settings.allowedNetworks)
      if (refusal !== undefined) {
        return yield* refused(
          `${destination.host} leads to ${address}, ${refusal}; webhooks deliver to public addresses only (WEBHOOK_ALLOWED_NETWORKS allows others)`
        )
      }
    }
  })

  return {
    register: traced("WebhookService.register")(function*(input: WebhookCreate) {
      yield* authorize("webhook.manage")
      const settings = yield* WebhookSettings
      yield* refusedDestination(input.url, settings)
      const registered = yield* repository.register(input, settings.maxRegistrations)
      if (Option.isNone(registered)) return yield* new TooManyWebhooks({ max: settings.maxRegistrations })
      return registered.value
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
