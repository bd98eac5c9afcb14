import type { LoadContext, Scenario } from "../scenarios.ts"

/** The headers of every request of a scenario: the caller's token, and what a body or Connect needs, and the scenario's own. */
export const requestHeaders = (
  scenario: Scenario,
  context: LoadContext,
  request: { readonly body?: string | undefined; readonly headers?: Readonly<Record<string, string>> | undefined }
) => ({
  authorization: `Bearer ${context.token}`,
  ...(request.body === undefined ? {} : { "content-type": "application/json" }),
  ...(scenario.kind === "connect" ? { "connect-protocol-version": "1" } : {}),
  ...request.headers
})
