import { seriesEndpoints } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("Issue 17's series and conflicts endpoints", seriesEndpoints)
