import { webhookRepositoryContract } from "../../core/test/repositoryContract/webhooks.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(webhookRepositoryContract)
