import { seriesChanges } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("Issue 17's changes of series and occurrences", seriesChanges)
