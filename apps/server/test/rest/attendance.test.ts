import { attendanceEndpoints } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

await onEveryDatabase("Issue 18's attendance endpoints", attendanceEndpoints)
