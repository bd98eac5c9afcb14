import { planningEndpoints } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("The planning's endpoints", planningEndpoints)
