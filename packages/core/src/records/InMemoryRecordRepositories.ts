import { Effect, Layer } from "effect"
import { eachRecordKind, type RecordPorts } from "./recordKinds.ts"
import { inMemoryRecords } from "./inMemoryRecords.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"

/** The port of every kind of `recordKinds`, each the generic record repository on the store. */
export const InMemoryRecordRepositories: Layer.Layer<RecordPorts, never, InMemoryStore> = Layer.mergeAll(
  ...eachRecordKind((kind) =>
    Layer.effect(kind.repository, Effect.map(InMemoryStore, (store) => inMemoryRecords(store, kind.table)))
  )
)
