import { guardianshipRepositoryContract } from "../../core/test/repositoryContract/guardians.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(guardianshipRepositoryContract)
