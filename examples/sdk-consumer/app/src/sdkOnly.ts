import { report } from "./check.ts"
import { effectFace } from "./effectFace.ts"
import { promiseFace } from "./promiseFace.ts"
import { restOnly } from "./restOnly.ts"

/**
 * The app as a team that installed only `@club/client-sdk effect` (the README's command) runs it:
 * both faces and both halves of the SDK, without the core as a library.
 */
const baseUrl = process.env["CLUB_BASE_URL"] ?? "http://localhost:8080"
const adminPassword = process.env["CLUB_ADMIN_PASSWORD"] ?? ""

await promiseFace(baseUrl, adminPassword)
await effectFace(baseUrl, adminPassword)
await restOnly(baseUrl, adminPassword)
report()
