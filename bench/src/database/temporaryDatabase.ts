import { createTemporaryDatabase as createOnServer, type TemporaryDatabase } from "@club/postgres-adapter/testing"
import { registerCleanup } from "../process/cleanup.ts"

/** A fresh, empty database on the server at `serverUrl`; dropped by `drop` or by the bench's cleanup. */
export const createTemporaryDatabase = async (serverUrl: string, purpose: string): Promise<TemporaryDatabase> => {
  const database = await createOnServer(serverUrl, { prefix: `club_bench_${purpose}` })
  const unregister = registerCleanup(`drop database ${database.name}`, database.drop)
  return {
    ...database,
    drop: async () => {
      unregister()
      await database.drop()
    }
  }
}
