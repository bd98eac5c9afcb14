import { badInput, carriesBody } from "@club/test-support/rest"
import { it } from "vitest"
import { onEveryDatabase } from "./support/club.ts"
import { expectProblem } from "@club/test-support/expectations"

await onEveryDatabase("Bad input", (club) =>
  badInput(club, {
    // The 1 MiB limit is the server's (RequestLimits): the app in process reads a body of any size.
    perTarget: (target, existing) => {
      if (!carriesBody(target)) return
      it("a body over 1 MiB: 413 problem+json", async () => {
        const e = await existing()
        const json = { ...target.valid?.(e), name: "x".repeat(1024 * 1024) }
        expectProblem(await club().as(target.caller).send(target.method, target.path(e), { json }), 413)
      })
    }
  }))
