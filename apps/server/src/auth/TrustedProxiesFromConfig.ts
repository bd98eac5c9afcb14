import { TrustedProxies, trustingProxies } from "@club/http-adapter"
import { Effect, Layer } from "effect"
import { AppConfig } from "../AppConfig.ts"

/** TRUSTED_PROXIES; an entry that is no address, range or proxy-addr name stops the start-up, naming it. */
export const TrustedProxiesFromConfig: Layer.Layer<never, Error, AppConfig> = Layer.effect(
  TrustedProxies,
  Effect.gen(function*() {
    const { trustedProxies } = yield* AppConfig
    return yield* Effect.try({
      try: () => trustingProxies(trustedProxies),
      catch: (error) => new Error(`TRUSTED_PROXIES: ${error instanceof Error ? error.message : String(error)}`)
    })
  })
)
