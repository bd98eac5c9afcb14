import { isDeepStrictEqual } from "node:util"
import type { ListScenario } from "../listScenarios.ts"
import { decodeTask, decodeTasks, grpcOnce } from "../load/grpc.ts"
import { requestHeaders } from "../load/requestHeaders.ts"
import type { BenchRequest, LoadContext, Scenario } from "../scenarios.ts"
import type { ServerProcess } from "../servers/ServerProcess.ts"
import type { Contexts } from "./pair.ts"

/** The entries of a list answer: a JSON array, or a Connect ListTasks message's `tasks`. */
const itemsOf = (answer: unknown): number | undefined => {
  if (Array.isArray(answer)) return answer.length
  const tasks = (answer as { readonly tasks?: unknown } | null)?.tasks
  return Array.isArray(tasks) ? tasks.length : undefined
}

/** A gRPC call's answer as the Connect JSON answer would write it, failing unless its status is 0. */
const grpcAnswerTextOf = async (server: ServerProcess, context: LoadContext, request: BenchRequest) => {
  const answer = await grpcOnce(server.url, request, context.token)
  if (answer.status !== "200") throw new Error(`${server.name} gRPC ${request.path}: ${answer.status}`)
  return JSON.stringify(request.path.endsWith("/ListTasks") ? decodeTasks(answer.message) : decodeTask(answer.message))
}

/** The text of one server's answer to `request`, failing unless its status is the scenario's. */
const answerTextOf = async (
  server: ServerProcess,
  scenario: Scenario,
  context: LoadContext,
  request: BenchRequest
): Promise<string> => {
  if (scenario.protocol === "grpc") return grpcAnswerTextOf(server, context, request)
  const response = await fetch(`${server.url}${request.path}`, {
    method: request.method,
    headers: requestHeaders(scenario, context, request),
    ...(request.body === undefined ? {} : { body: request.body }),
    signal: AbortSignal.timeout(30_000)
  })
  const text = await response.text()
  if (response.status !== scenario.expectedStatus) {
    throw new Error(
      `${server.name} ${request.method} ${request.path}: status ${response.status}: ${text.slice(0, 200)}`
    )
  }
  return text
}

/** Sends `request` once as the scenario sends it; the parsed answer, or a failure naming what came back. */
export const answerOf = async (
  server: ServerProcess,
  scenario: Scenario,
  context: LoadContext,
  request: BenchRequest
): Promise<unknown> => JSON.parse(await answerTextOf(server, scenario, context, request))

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
  const answer = await answerOf(server, scenario, context, request)
  const items = itemsOf(answer)
  if (items !== scenario.items) {
    throw new Error(`${server.name} ${request.method} ${request.path}: expected ${scenario.items} items, got ${items}`)
  }
  return answer
}

/** An answer's first entry when it is a list (see `itemsOf`), else the answer. */
const firstItemOf = (answer: unknown): unknown => {
  if (Array.isArray(answer)) return answer[0]
  const tasks = (answer as { readonly tasks?: unknown } | null)?.tasks
  return Array.isArray(tasks) ? tasks[0] : answer
}

/**
 * Fails unless both servers answered the same, field for field (the seed's empty lists and nulls
 * included): the baseline's cost is only the project's yardstick while it writes what the project
 * writes.
 */
export const expectSameAnswers = (scenario: Scenario, baseline: unknown, project: unknown) => {
  if (!isDeepStrictEqual(baseline, project)) {
    throw new Error(
      `${scenario.name}: the baseline's answer differs from the project's; first entries: ` +
        `${JSON.stringify(firstItemOf(baseline))} against ${JSON.stringify(firstItemOf(project))}`
    )
  }
}

/**
 * An answer as two servers on databases of their own can give it alike: a task's id is a random
 * UUID drawn by the database, so a task list is compared without them (everything else, the
 * order included, must be the same). On a shared database, the answer as it is.
 */
export const comparable = (answer: unknown, separate: boolean): unknown => {
  const tasks = (answer as { readonly tasks?: unknown } | null)?.tasks
  if (!separate || !Array.isArray(tasks)) return answer
  return { ...(answer as object), tasks: tasks.map(({ id: _id, ...task }: Record<string, unknown>) => task) }
}

/**
 * The same request, sent once to each server (a read: it changes nothing), each as its own caller,
 * and `expectSameAnswers` (of what can be alike: `comparable`).
 */
export const expectSameAnswer = async (
  servers: { readonly baseline: ServerProcess; readonly project: ServerProcess; readonly separate: boolean },
  scenario: Scenario,
  contexts: Contexts
) => {
  const request = scenario.request(contexts.project)
  expectSameAnswers(
    scenario,
    comparable(await answerOf(servers.baseline, scenario, contexts.baseline, request), servers.separate),
    comparable(await answerOf(servers.project, scenario, contexts.project, request), servers.separate)
  )
}

/** A write's answer with the id it gave set aside (each server numbers its own rows). */
const withoutId = (text: string): unknown => {
  if (text.length === 0) return ""
  try {
    const { id: _id, ...rest } = JSON.parse(text) as Record<string, unknown>
    return rest
  } catch {
    return text
  }
}

/**
 * A write sent once to each server (on a shared database the baseline's row is a row more), each
 * as its own caller, and the run fails unless both answered the scenario's status and the same
 * answer but for the new row's id: the baseline's write is a yardstick only while it answers what
 * the project answers.
 */
export const expectSameWriteAnswer = async (
  servers: { readonly baseline: ServerProcess; readonly project: ServerProcess },
  scenario: Scenario,
  contexts: Contexts
) => {
  const request = scenario.request(contexts.project)
  const answers: Array<unknown> = []
  for (
    const [server, context] of [[servers.baseline, contexts.baseline], [servers.project, contexts.project]] as const
  ) {
    answers.push(withoutId(await answerTextOf(server, scenario, context, request)))
  }
  expectSameAnswers(scenario, answers[0], answers[1])
}
