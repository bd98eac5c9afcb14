import { idempotencyKeysContract } from "../../core/test/repositoryContract/idempotencyKeys.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(idempotencyKeysContract)
