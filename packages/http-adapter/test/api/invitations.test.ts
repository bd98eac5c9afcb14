import { invitationEndpoints } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("Issue 41's sessions open to a group, in process", () => {
  invitationEndpoints(club)
})
