import type { LoadContext, Scenario } from "../scenarios.ts"
import { requestHeaders } from "./requestHeaders.ts"

/** autocannon's `requests` for a scenario: each request drawn anew (its ids, its body) as the scenario draws it. */
export const scenarioRequests = (scenario: Scenario, context: LoadContext) => [{
  setupRequest: (request: Record<string, unknown>) => {
    const next = scenario.request(context)
    return {
      ...request,
      method: next.method,
      path: next.path,
      body: next.body,
      headers: requestHeaders(scenario, context, next)
    }
  }
}]
