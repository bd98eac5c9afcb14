import { Effect, Layer } from "effect"
import { HostResolver } from "./HostResolver.ts"

/** A `HostResolver` that knows the names of `table` (and `localhost`), and no other: names that resolve to nothing. */
export const hostResolverOf = (table: Readonly<Record<string, ReadonlyArray<string>>> = {}) =>
  Layer.succeed(HostResolver)({
    resolve: (host) => Effect.succeed(({ localhost: ["127.0.0.1", "::1"], ...table })[host.toLowerCase()] ?? [])
  })

export const InMemoryHostResolver = hostResolverOf()
