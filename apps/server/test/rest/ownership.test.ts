import { ownershipRules } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("Issue 36's ownership rule on planning and attendance writes", ownershipRules)
