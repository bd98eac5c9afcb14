import { isDeepStrictEqual } from "node:util"
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
 * Answers the parsed answer.
 */
export const expectItems = async (
  server: ServerProcess,
  scenario: ListScenario,
  context: LoadContext
): Promise<unknown> => {
  const request = scenario.request(context)
  const response = await fetch(`${server.url}${request.path}`, {
    method: request.method,
    headers: requestHeaders(scenario, context, request),
    ...(request.body === undefined ? {} : { body: request.body }),
    signal: AbortSignal.timeout(30_000)
  })
  const text = await response.text()
  const answer: unknown = response.status === scenario.expectedStatus ? JSON.parse(text) : undefined
  const items = itemsOf(answer)
  if (items !== scenario.items) {
    throw new Error(
      `${server.name} ${request.method} ${request.path}: expected ${scenario.items} items, got ` +
        (items === undefined ? `status ${response.status}: ${text.slice(0, 200)}` : `${items}`)
    )
  }
  return answer
}

/** The first entry of a list answer (see `itemsOf`). */
const firstItemOf = (answer: unknown): unknown =>
  Array.isArray(answer) ? answer[0] : (answer as { readonly tasks: ReadonlyArray<unknown> }).tasks[0]

/**
 * Fails unless both servers answered the same entries: the baseline's cost per entry is only the
 * project's yardstick while it writes what the project writes, field for field (the seed's empty
 * lists and nulls included).
 */
export const expectSameAnswers = (scenario: ListScenario, baseline: unknown, project: unknown) => {
  if (!isDeepStrictEqual(baseline, project)) {
    throw new Error(
      `${scenario.name}: the baseline's answer differs from the project's; first entries: ` +
        `${JSON.stringify(firstItemOf(baseline))} against ${JSON.stringify(firstItemOf(project))}`
    )
  }
}
