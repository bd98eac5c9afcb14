import type { LoadContext, Scenario } from "../scenarios.ts"

/** The headers of every request of a scenario: the caller's token, and what a body or Connect needs. */
export const requestHeaders = (scenario: Scenario, context: LoadContext, body: string | undefined) => ({
  authorization: `Bearer ${context.token}`,
  ...(body === undefined ? {} : { "content-type": "application/json" }),
  ...(scenario.kind === "connect" ? { "connect-protocol-version": "1" } : {})
})
