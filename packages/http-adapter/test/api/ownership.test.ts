import { ownershipRules } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("Issue 36's ownership rule on planning and attendance writes, in process", () => {
  ownershipRules(club)
})
