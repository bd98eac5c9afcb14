import { membershipRepositoryContract } from "../../core/test/repositoryContract/membership.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(membershipRepositoryContract)
