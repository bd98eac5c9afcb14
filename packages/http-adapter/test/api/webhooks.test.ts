import { webhookEndpoints } from "@club/test-support/rest"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()

describe("Issue 18's webhook endpoints, in process", () => {
  webhookEndpoints(club)
})
