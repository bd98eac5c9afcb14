import { coachRepositoryContract } from "../../core/test/repositoryContract/coaches.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(coachRepositoryContract)
