import type { HealthDto } from "@club/contract/rest"
import type { RestClient } from "../../rest/RestClient.ts"
import { run } from "../run.ts"

export type Health = typeof HealthDto.Type

/** `/health/...`: no token needed. */
export interface HealthApi {
  /** `GET /health/live`: the process answers. */
  live(): Promise<Health>
  /** `GET /health/ready`: the database answers too (503 `Unavailable` otherwise). */
  ready(): Promise<Health>
}

export const healthOf = (rest: RestClient): HealthApi => ({
  live: () => run(rest.health.live()),
  ready: () => run(rest.health.ready())
})
