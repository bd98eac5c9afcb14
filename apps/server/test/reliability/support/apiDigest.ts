import { createHash } from "node:crypto"
import type { Caller } from "../../rest/support/http.ts"

/**
 * A digest of what the API shows of every record (athletes, coaches, admins, users, sessions with
 * their athletes and activities, activities), for a database the test cannot query directly (the
 * embedded one, inside the server process).
 */
export const apiDigest = (admin: Caller, coach: Caller) => async (): Promise<string> => {
  const lists = await Promise.all([
    admin.post("/athletes/all"),
    admin.get("/coaches/all"),
    admin.get("/admins/all"),
    admin.get("/users/all"),
    coach.get("/session/all"),
    coach.get("/activite/all")
  ])
  const hash = createHash("sha256")
  for (const list of lists) {
    if (list.status !== 200 && list.status !== 404) {
      throw new Error(`${list.method} ${list.path} answered ${list.status}`)
    }
    hash.update(`${list.path}:${list.status}:${list.text}\n`)
  }
  return hash.digest("hex")
}
