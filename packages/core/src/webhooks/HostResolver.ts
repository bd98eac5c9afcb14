import { Context, type Effect } from "effect"

/**
 * The addresses a host name resolves to (the system's resolver on the server), so that a webhook's
 * destination is judged by where it leads and not by its name. Empty when the name resolves to
 * nothing (then nothing can be judged yet: each delivery judges the address it connects to).
 */
export class HostResolver extends Context.Service<HostResolver, {
  resolve(host: string): Effect.Effect<ReadonlyArray<string>>
}>()("@club/core/HostResolver") {}
