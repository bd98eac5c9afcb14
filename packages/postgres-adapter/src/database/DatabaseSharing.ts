import { Context, Layer } from "effect"

/**
 * Whether processes other than this one can write to the database. It is a fact about the
 * database layer, so each layer provides it beside its client: a PostgreSQL server is shared
 * (every instance behind the load balancer writes to it), the embedded database is exclusive
 * (only the process that opened its files can reach it). Whatever this process keeps in memory
 * about the database is kept true by its own writes alone on an exclusive database; on a shared
 * one it must also hear of the others' writes, through the database (LISTEN/NOTIFY).
 */
export class DatabaseSharing extends Context.Service<DatabaseSharing, {
  readonly otherProcessesWrite: boolean
}>()("@club/postgres-adapter/DatabaseSharing") {
  static readonly shared = Layer.succeed(DatabaseSharing, { otherProcessesWrite: true })
  static readonly exclusive = Layer.succeed(DatabaseSharing, { otherProcessesWrite: false })
}
