import { planningEndpoints } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("The planning's endpoints, in process", () => {
  planningEndpoints(club)
})
