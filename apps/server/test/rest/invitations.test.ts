import { it } from "vitest"
import { expectProblem } from "@club/test-support/expectations"
import { invitationEndpoints } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"

/** Issue 41's invitations over the wire, on both databases: groups and memberships made through REST. */
await onEveryDatabase("Sessions open to a group (issue 41)", (club) => {
  invitationEndpoints(club)

  it("the guardian feed answers 404 for an unknown token", async () => {
    expectProblem(await club().anonymous.get(`/planning/feeds/${"x".repeat(43)}/guardian.ics`), 404)
  })
})
