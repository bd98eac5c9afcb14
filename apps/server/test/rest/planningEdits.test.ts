import { planningEdits } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("Everyday planning edits and daylight-saving nights", planningEdits, {
  env: { CLUB_TIMEZONE: "Europe/Paris" }
})
