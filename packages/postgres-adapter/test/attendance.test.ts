import { attendanceRepositoryContract } from "../../core/test/repositoryContract/attendance.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(attendanceRepositoryContract)
