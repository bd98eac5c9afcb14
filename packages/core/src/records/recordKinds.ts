import { type Context, Layer } from "effect"
import { AdminTable } from "./Admin.ts"
import type { AnyRecordTable, RecordClass, RecordTable } from "./RecordTable.ts"
import { AdminRepository } from "./AdminRepository.ts"
import type { PlainRecordRepository } from "./RecordRepository.ts"
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

/** The use-cases of every kind of `recordKinds`. */
export const RecordServicesLive: Layer.Layer<Layer.Success<AnyRecordKind["service"]>, never, RecordPorts> = Layer
  .mergeAll(...(recordKinds.map((kind) => kind.service) as unknown as [AnyRecordKind["service"]]))

/**
 * A kind of `recordKinds` with its own types left out, for what is built alike for every kind (a
 * store's repositories, tests); each kind's types were checked where `recordKind` listed it.
 */
export interface ErasedRecordKind {
  readonly table: AnyRecordTable
  /** Its port, named by every port of `recordKinds`: what a layer of it provides is one of them. */
  readonly repository: Context.Key<RecordPorts, PlainRecordRepository<{ readonly id: number }, never, never>>
}

/** `f` of each kind of `recordKinds`, as a non-empty tuple for `Layer.mergeAll`. */
export const eachRecordKind = <B>(f: (kind: ErasedRecordKind) => B): [B, ...Array<B>] =>
  (recordKinds as ReadonlyArray<unknown> as ReadonlyArray<ErasedRecordKind>).map(f) as [B, ...Array<B>]
