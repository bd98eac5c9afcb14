import { membershipEndpoints } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("Issue 41's groups and memberships", membershipEndpoints)
