import { membershipEndpoints } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("Issue 41's groups and memberships, in process", () => {
  membershipEndpoints(club)
})
