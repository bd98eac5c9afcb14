import { taskRepositoryContract } from "../../core/test/repositoryContract/tasks.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(taskRepositoryContract)
