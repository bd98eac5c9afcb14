import { activityEndpoints } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("The seed's activity endpoints, in process", () => {
  activityEndpoints(club)
})
