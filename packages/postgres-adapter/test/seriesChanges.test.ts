import { seriesChangesContract } from "../../core/test/repositoryContract/seriesChanges.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(seriesChangesContract)
