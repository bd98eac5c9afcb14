import { Context } from "effect"
import type { AllowedNetwork } from "./WebhookDestination.ts"

/** What webhooks may be registered (issue 37). */
export interface WebhookSettings {
  /**
   * Networks a webhook may deliver to although they are not public (`WEBHOOK_ALLOWED_NETWORKS`):
   * receivers on the operator's own network. None by default.
   */
  readonly allowedNetworks: ReadonlyArray<AllowedNetwork>
  /** How many webhooks may be registered at once (`WEBHOOK_MAX_REGISTRATIONS`). */
  readonly maxRegistrations: number
}

export const defaultWebhookSettings: WebhookSettings = { allowedNetworks: [], maxRegistrations: 100 }

export const WebhookSettings = Context.Reference<WebhookSettings>("@club/core/WebhookSettings", {
  defaultValue: () => defaultWebhookSettings
})
