import { athleteRepositoryContract } from "../../core/test/repositoryContract/athletes.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(athleteRepositoryContract)
