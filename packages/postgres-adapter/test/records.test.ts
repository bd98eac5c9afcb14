import { recordContracts } from "../../core/test/repositoryContract/records.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

for (const suite of recordContracts) onEachDatabaseContract(suite)
