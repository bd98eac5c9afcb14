import { noticePreferenceRepositoryContract } from "../../core/test/repositoryContract/noticePreferences.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(noticePreferenceRepositoryContract)
