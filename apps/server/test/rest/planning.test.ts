import { planningEndpoints } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("Issue 17's planning endpoints", planningEndpoints)
