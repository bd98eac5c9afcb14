import { sessionRepositoryContract } from "../../core/test/repositoryContract/sessions.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(sessionRepositoryContract)
