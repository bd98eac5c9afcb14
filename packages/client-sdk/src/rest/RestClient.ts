import type { ClubApi } from "@club/contract/rest"
import type { HttpApiClient } from "effect/http-api"

/** The typed REST client of the whole contract: one object per group, one method per endpoint. */
export type RestClient = HttpApiClient.ForApi<typeof ClubApi>
