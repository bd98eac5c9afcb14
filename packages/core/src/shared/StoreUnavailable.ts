import { Data, Predicate } from "effect"

const TypeId = "~@club/core/StoreUnavailable" as const

const messageOf = (cause: unknown): string =>
  Predicate.hasProperty(cause, "message") && typeof cause.message === "string" && cause.message.length > 0
    ? `The store cannot be reached now: ${cause.message}`
    : "The store cannot be reached now"

/**
 * The store behind a port cannot take work now (it refused, cut or timed out the connection, is
 * starting, shutting down or out of connections), as opposed to a bug. No use-case can act on it,
 * so a port's implementation dies with it, as with any other infrastructure failure; the adapters
 * answer it "unavailable, retry later" (REST 503, Connect `unavailable`) instead of an internal
 * error. Which failures of its store are outages is the port implementation's to decide (the
 * PostgreSQL adapter: connection failures and a few SQLSTATEs); core only names the outcome.
 */
export class StoreUnavailable extends Data.TaggedError("StoreUnavailable")<{
  /** What the store reported (the driver's error), for the logs. */
  readonly cause: unknown
  readonly message: string
}> {
  readonly [TypeId]: typeof TypeId = TypeId

  constructor(args: { readonly cause: unknown }) {
    super({ cause: args.cause, message: messageOf(args.cause) })
  }
}

/**
 * Whether a port's defect means that its store cannot be reached now: a `StoreUnavailable`. It is
 * recognised by a type id rather than `instanceof`, so that one built by another copy of core
 * (an adapter bundled with its own) is recognised too.
 */
export const isUnavailable = (defect: unknown): defect is StoreUnavailable => Predicate.hasProperty(defect, TypeId)

const OutcomeUnknownTypeId = "~@club/core/WriteOutcomeUnknown" as const

/**
 * A write whose outcome the store did not tell: the connection was lost, or the store failed, at or
 * after its commit was sent, so the write may or may not have been kept. No port sends such a write
 * again (it could then be kept twice); it dies with this, and the adapters answer that the write may
 * have happened (REST 503 naming `Idempotency-Key`, Connect `unknown`): a client that must know
 * retries with an idempotency key, whose record commits with the write.
 */
export class WriteOutcomeUnknown extends Data.TaggedError("WriteOutcomeUnknown")<{
  /** What the store reported (the driver's error), for the logs. */
  readonly cause: unknown
  readonly message: string
}> {
  readonly [OutcomeUnknownTypeId]: typeof OutcomeUnknownTypeId = OutcomeUnknownTypeId

  constructor(args: { readonly cause: unknown }) {
    super({ cause: args.cause, message: "The store did not confirm the write's commit; it may have happened" })
  }
}

/** Whether a port's defect is a `WriteOutcomeUnknown` (by its type id, as `isUnavailable`). */
export const isOutcomeUnknown = (defect: unknown): defect is WriteOutcomeUnknown =>
  Predicate.hasProperty(defect, OutcomeUnknownTypeId)
