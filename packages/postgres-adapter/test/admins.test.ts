import { adminRepositoryContract } from "../../core/test/repositoryContract/admins.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(adminRepositoryContract)
