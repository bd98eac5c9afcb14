import { activityRepositoryContract } from "../../core/test/repositoryContract/activities.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(activityRepositoryContract)
