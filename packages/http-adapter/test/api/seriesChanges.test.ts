import { seriesChanges } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("Issue 17's changes of series and occurrences, in process", () => {
  seriesChanges(club)
})
