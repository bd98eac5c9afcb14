import { seriesRepositoryContract } from "../../core/test/repositoryContract/series.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(seriesRepositoryContract)
