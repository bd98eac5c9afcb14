import { lastAdminContract } from "../../core/test/repositoryContract/lastAdmin.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(lastAdminContract)
