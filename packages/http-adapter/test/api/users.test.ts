import { userAndAdminEndpoints } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("CONTRACT.md's user and admin endpoints, in process", () => {
  userAndAdminEndpoints(club)
})
