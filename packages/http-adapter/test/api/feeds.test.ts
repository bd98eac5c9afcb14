import { feedEndpoints } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("The calendar feeds, in process", () => {
  feedEndpoints(club)
})
