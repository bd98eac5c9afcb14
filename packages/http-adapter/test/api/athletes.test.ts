import { athleteEndpoints } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("The seed's athlete endpoints, in process", () => {
  athleteEndpoints(club)
})
