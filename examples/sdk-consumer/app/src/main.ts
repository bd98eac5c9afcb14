import { report } from "./check.ts"
import { coreLibrary } from "./coreLibrary.ts"
import { effectFace } from "./effectFace.ts"
import { promiseFace } from "./promiseFace.ts"
import { restOnly } from "./restOnly.ts"

const baseUrl = process.env["CLUB_BASE_URL"] ?? "http://localhost:8080"
const adminPassword = process.env["CLUB_ADMIN_PASSWORD"] ?? ""

await promiseFace(baseUrl, adminPassword)
await effectFace(baseUrl, adminPassword)
await restOnly(baseUrl, adminPassword)
await coreLibrary()

report()
