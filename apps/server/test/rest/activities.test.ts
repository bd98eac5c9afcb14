import { activityEndpoints } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("The seed's activity endpoints", activityEndpoints)
