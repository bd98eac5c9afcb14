import { seriesEndpoints } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("Issue 17's series and conflicts endpoints, in process", () => {
  seriesEndpoints(club)
})
