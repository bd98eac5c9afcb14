import { userAndAdminEndpoints } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("CONTRACT.md's user and admin endpoints", userAndAdminEndpoints)
