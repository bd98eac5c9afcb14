import { Effect, Layer } from "effect"
import { eachRecordKind, type RecordPorts } from "../usecases/recordKinds.ts"
import { inMemoryRecords } from "./inMemoryRecords.ts"
import { InMemoryStore } from "./InMemoryStore.ts"

/** The port of every kind of `recordKinds`, each the generic record repository on the store. */
export const InMemoryRecordRepositories: Layer.Layer<RecordPorts, never, InMemoryStore> = Layer.mergeAll(
  ...eachRecordKind((kind) =>
    Layer.effect(kind.repository, Effect.map(InMemoryStore, (store) => inMemoryRecords(store, kind.table)))
  )
)
