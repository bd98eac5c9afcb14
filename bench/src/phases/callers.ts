import type { Seeded } from "../database/seed.ts"
import type { LoadContext } from "../scenarios.ts"
import { createUser, login } from "../servers/api.ts"
import { admin } from "../servers/servers.ts"

const coach = { name: "bench-coach", password: "bench-coach-password" }

/**
 * The load runs as a COACH: the one role every benchmarked endpoint allows (creates and updates
 * of sessions and activities are coach-only). The login scenario logs that coach in.
 */
export const prepareCallers = async (projectUrl: string, seeded: Seeded): Promise<LoadContext> => {
  const adminToken = await login(projectUrl, admin)
  await createUser(projectUrl, adminToken, { ...coach, role: "COACH", coachId: seeded.coaches.min })
  return { seeded, token: await login(projectUrl, coach), login: coach }
}
