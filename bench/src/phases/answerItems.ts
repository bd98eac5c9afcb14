import type { ListScenario } from "../listScenarios.ts"
import { requestHeaders } from "../load/requestHeaders.ts"
import type { LoadContext } from "../scenarios.ts"
import type { ServerProcess } from "../servers/ServerProcess.ts"

/** The entries of a list answer: a JSON array, or a Connect ListTasks message's `tasks`. */
const itemsOf = (answer: unknown): number | undefined => {
  if (Array.isArray(answer)) return answer.length
  const tasks = (answer as { readonly tasks?: unknown } | null)?.tasks
  return Array.isArray(tasks) ? tasks.length : undefined
}

/**
 * Sends the scenario's request once and fails unless the answer holds exactly the scenario's
 * number of entries: a per-item figure over a list of another length would mean nothing.
 */
export const expectItems = async (server: ServerProcess, scenario: ListScenario, context: LoadContext) => {
  const request = scenario.request(context)
  const response = await fetch(`${server.url}${request.path}`, {
    method: request.method,
    headers: requestHeaders(scenario, context, request),
    ...(request.body === undefined ? {} : { body: request.body }),
    signal: AbortSignal.timeout(30_000)
  })
  const text = await response.text()
  const items = response.status === scenario.expectedStatus ? itemsOf(JSON.parse(text)) : undefined
  if (items !== scenario.items) {
    throw new Error(
      `${server.name} ${request.method} ${request.path}: expected ${scenario.items} items, got ` +
        (items === undefined ? `status ${response.status}: ${text.slice(0, 200)}` : `${items}`)
    )
  }
}
