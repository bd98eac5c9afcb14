import { zonePropertiesContract } from "../../core/test/repositoryContract/zoneProperties.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

// Fewer cases than on the in-memory store: each writes six sessions through the database.
onEachDatabaseContract(zonePropertiesContract(30))
