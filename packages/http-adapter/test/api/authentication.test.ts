import { authentication } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("Authentication, in process", () => {
  authentication(club)
})
