import { guardianEndpoints } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("Issue 41's guardian endpoints", guardianEndpoints)
