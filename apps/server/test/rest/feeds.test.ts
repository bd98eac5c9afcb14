import { feedEndpoints } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("The calendar feeds", feedEndpoints)
