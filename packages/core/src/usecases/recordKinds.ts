import type { Context, Layer } from "effect"
import { AdminTable } from "../domain/Admin.ts"
import type { RecordClass, RecordTable } from "../domain/RecordTable.ts"
import { AdminRepository } from "../ports/AdminRepository.ts"
import type { PlainRecordRepository } from "../ports/RecordRepository.ts"
import { AdminService } from "./AdminService.ts"

/** A plain kind of record: how it is kept, its port, and its use-cases' layer (which needs the port). */
export interface RecordKind<
  Port,
  R extends RecordClass<{ readonly id: number }>,
  C extends RecordClass,
  U extends RecordClass,
  Service
> {
  readonly table: RecordTable<R, C, U>
  readonly repository: Context.Key<Port, PlainRecordRepository<InstanceType<R>, InstanceType<C>, InstanceType<U>>>
  readonly service: Layer.Layer<Service, never, Port>
}

/** A `RecordKind`, checked: its port and its table hold the same records. */
export const recordKind = <
  Port,
  R extends RecordClass<{ readonly id: number }>,
  C extends RecordClass,
  U extends RecordClass,
  Service
>(kind: RecordKind<Port, R, C, U, Service>) => kind

/**
 * Every plain kind of record. `UseCasesLive` serves their use-cases, and each store (in memory,
 * PostgreSQL) implements their ports with its generic record repository: a new kind is one line here.
 */
export const recordKinds = [
  recordKind({ table: AdminTable, repository: AdminRepository, service: AdminService.layer })
] as const

/** One of `recordKinds`. */
export type AnyRecordKind = (typeof recordKinds)[number]

/** The ports of `recordKinds`. */
export type RecordPorts = Context.Service.Identifier<AnyRecordKind["repository"]>

/** The values of `recordKinds` one of their fields holds, as a non-empty tuple for `Layer.mergeAll`. */
export const eachRecordKind = <B>(f: (kind: AnyRecordKind) => B): [B, ...Array<B>] =>
  recordKinds.map(f) as unknown as [B, ...Array<B>]
