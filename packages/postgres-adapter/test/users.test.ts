import { userRepositoryContract } from "../../core/test/repositoryContract/users.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(userRepositoryContract)
