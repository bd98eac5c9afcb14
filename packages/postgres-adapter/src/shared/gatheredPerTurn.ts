import type { AuditActor } from "@club/core"
import { Cause, Context, Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"

/** The most asks one statement carries; more waiting in one turn are sent as further statements. */
export const maxAsksPerStatement = 256

/**
 * A write's ask with whom it is done for (core's `AuditActor`), read where it was asked: the
 * statement that serves it names each row's own actor to the audit trigger (`rowActorsOf`,
 * decision 0316), never the first waiting ask's actor for all (decision 0303).
 */
export interface ActorAsk<Ask> {
  readonly ask: Ask
  readonly actor: AuditActor
}

/**
 * The value of `club.audit_row_actors` for one statement of gathered asks: for each table it
 * inserts into, the actor of each row it inserts there, in the rows' order, null for the server's
 * own (migrations 0037 and 0041, decisions 0316 and 0323).
 */
export const rowActorsOf = (tables: Readonly<Record<string, ReadonlyArray<AuditActor>>>): string => {
  const byTable: Record<string, ReadonlyArray<AuditActor | null>> = {}
  for (const [table, actors] of Object.entries(tables)) {
    byTable[table] = actors.map((actor) => actor.userId === null ? null : actor)
  }
  return JSON.stringify({ tables: byTable })
}

interface Waiting<Ask, Answer, E> {
  readonly ask: Ask
  readonly resume: (answer: Effect.Effect<Answer, E>) => void
}

/**
 * Statements of every request of one turn of the event loop, gathered and sent as one statement
 * per key (`sendMany` of the turn's asks of that key, answering each in the asks' order): under
 * load, the requests read from their sockets in one turn all ask before any of them is answered,
 * and one statement then serves them all, instead of a statement, a pooled connection and a
 * wake-up of the process each (docs/DECISIONS.md, "Reads by id of concurrent requests are one
 * statement"). Each ask's statement is sent after the ask was made, so it sees every write
 * committed before.
 *
 * An ask inside a transaction is sent at once on the transaction's connection, alone: it must see
 * the transaction's own writes, and no other request may see them (or share their fate). So is an
 * ask `alone` says must be. A failure of a statement of several asks is every one's failure, unless
 * `eachAloneWhen` says of it that nothing was kept (for a write: PostgreSQL refused the statement
 * and rolled it back, `refusedByServer`): then each is sent again alone, and a failure that one ask
 * causes (a row a constraint refuses) stays its own. A write is never sent again after any other
 * failure (a lost connection, an error at COMMIT): it may have been kept. The statement runs with the first waiting ask's context (its
 * trace and its log annotations), as effect's own request batching does.
 */
export const gatheredPerTurn = <Ask, Answer, E>(options: {
  readonly sql: SqlClient
  /** One statement for asks of one key; their answers, in the asks' order. */
  readonly sendMany: (asks: ReadonlyArray<Ask>) => Effect.Effect<ReadonlyArray<Answer>, E>
  /** Asks of the same key are sent together. */
  readonly keyOf: (ask: Ask) => string
  /** An ask that is sent alone, whatever else waits. */
  readonly alone?: (ask: Ask) => boolean
  /** Whether a failure of several asks left nothing kept, so that each may be sent again alone. */
  readonly eachAloneWhen?: (cause: Cause.Cause<E>) => boolean
  /**
   * The most asks one `sendMany` takes (at most `maxAsksPerStatement`); more of a turn are sent as
   * further ones, at once. For a `sendMany` whose work grows with its asks one after the other (a
   * statement each, in one transaction), so that an ask waits for a few others, not the whole turn.
   */
  readonly maxAsks?: number
}): (ask: Ask) => Effect.Effect<Answer, E> => {
  const { keyOf, sendMany, sql } = options
  const maxAsks = Math.min(options.maxAsks ?? maxAsksPerStatement, maxAsksPerStatement)
  let gatherings = new Map<string, Array<Waiting<Ask, Answer, E>>>()
  let firstContext = Context.empty()

  // Suspended: a statement that throws while it is built is a defect of its asks, not of the process.
  const sendNow = (asks: ReadonlyArray<Ask>) => Effect.suspend(() => sendMany(asks))

  const alone = (ask: Ask) => Effect.map(sendNow([ask]), (answers) => answers[0]!)

  const send = (waiting: ReadonlyArray<Waiting<Ask, Answer, E>>, context: Context.Context<never>) =>
    Effect.runForkWith(context)(Effect.matchCause(sendNow(waiting.map((one) => one.ask)), {
      onFailure: (cause: Cause.Cause<E>) => {
        for (const one of waiting) {
          if (waiting.length > 1 && options.eachAloneWhen?.(cause) === true) {
            Effect.runForkWith(context)(Effect.matchCause(alone(one.ask), {
              onFailure: (own: Cause.Cause<E>) => one.resume(Effect.failCause(own)),
              onSuccess: (answer) => one.resume(Effect.succeed(answer))
            }))
          } else one.resume(Effect.failCause(cause))
        }
      },
      onSuccess: (answers) => waiting.forEach((one, index) => one.resume(Effect.succeed(answers[index]!)))
    }))

  // At the end of the turn (setImmediate runs after every socket read in it): each ask of the turn has been made.
  const flush = () => {
    const sent = gatherings
    const context = firstContext
    gatherings = new Map()
    firstContext = Context.empty()
    for (const waiting of sent.values()) {
      for (let start = 0; start < waiting.length; start += maxAsks) {
        send(waiting.slice(start, start + maxAsks), context)
      }
    }
  }

  return (ask) =>
    Effect.withFiber((fiber) =>
      options.alone?.(ask) === true || Context.getOrUndefined(fiber.context, sql.transactionService) !== undefined
        ? alone(ask)
        : Effect.callback<Answer, E>((resume) => {
          if (gatherings.size === 0) {
            firstContext = fiber.context
            setImmediate(flush)
          }
          const key = keyOf(ask)
          const gathering = gatherings.get(key)
          if (gathering === undefined) gatherings.set(key, [{ ask, resume }])
          else gathering.push({ ask, resume })
        })
    )
}
