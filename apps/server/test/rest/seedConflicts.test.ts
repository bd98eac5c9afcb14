import { seedBesideBookings, seedRefusingConflicts } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("The seed's session writes beside the schedule's bookings", seedBesideBookings)
await onEveryDatabase(
  "The seed's session writes with SCHEDULE_SEED_REFUSES_CONFLICTS=true",
  seedRefusingConflicts,
  { env: { SCHEDULE_SEED_REFUSES_CONFLICTS: "true" } }
)
