import { invitationsContract } from "../../core/test/repositoryContract/invitations.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(invitationsContract)
