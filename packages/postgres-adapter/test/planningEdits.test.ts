import { planningEditsContract } from "../../core/test/repositoryContract/planningEdits.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(planningEditsContract)
