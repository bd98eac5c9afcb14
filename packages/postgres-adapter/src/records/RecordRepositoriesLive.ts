import { eachRecordKind, type RecordPorts } from "@club/core"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import type { CredentialsCache } from "../users/CredentialsCache.ts"
import { recordRepository } from "./recordRepository.ts"

/** The port of every kind of core's `recordKinds`, each the generic record repository on its table. */
export const RecordRepositoriesLive: Layer.Layer<RecordPorts, never, SqlClient.SqlClient | CredentialsCache> = Layer
  .mergeAll(...eachRecordKind((kind) => Layer.effect(kind.repository, recordRepository(kind.table))))
