import { attendanceEndpoints } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("Issue 18's attendance endpoints, in process", () => {
  attendanceEndpoints(club)
})
