import type { BenchRequest, LoadContext, Scenario } from "./scenarios.ts"

/** An endpoint whose answer is a list, measured at several sizes of that list. */
export interface ListEndpoint {
  /** The scenario names are `list-<name>-<items>`. */
  readonly name: string
  readonly title: string
  readonly kind: "read" | "connect"
  readonly request: (context: LoadContext) => BenchRequest
}

/** A list endpoint on the data set of seedLists, whose answer holds exactly `items` entries. */
export interface ListScenario extends Scenario {
  readonly endpoint: ListEndpoint
  readonly items: number
}

// The ranges start before the first session of seedLists and end after its last, at every size.
const from = "2026-01-01"
const to = "2026-03-01"

export const listEndpoints: ReadonlyArray<ListEndpoint> = [
  {
    name: "athlete-between",
    title: "GET /athletes/athletes/{id}/session/between/…",
    kind: "read",
    request: ({ seeded }) => ({
      method: "GET",
      path: `/athletes/athletes/${seeded.athletes.min}/session/between/${from}/${to}`
    })
  },
  {
    name: "athlete-after",
    title: "GET /athletes/athletes/{id}/session/after/…",
    kind: "read",
    request: ({ seeded }) => ({
      method: "GET",
      path: `/athletes/athletes/${seeded.athletes.min}/session/after/${from}`
    })
  },
  {
    name: "athlete-sessions",
    title: "GET /athletes/athlete/{id}/session",
    kind: "read",
    request: ({ seeded }) => ({ method: "GET", path: `/athletes/athlete/${seeded.athletes.min}/session` })
  },
  {
    name: "session-activities",
    title: "GET /athletes/athletes/session/{id}/activities",
    kind: "read",
    request: ({ seeded }) => ({ method: "GET", path: `/athletes/athletes/session/${seeded.sessions.min}/activities` })
  },
  {
    name: "athletes",
    title: "POST /athletes/all",
    kind: "read",
    request: () => ({ method: "POST", path: "/athletes/all" })
  },
  {
    name: "coaches",
    title: "GET /all",
    kind: "read",
    request: () => ({ method: "GET", path: "/all" })
  },
  {
    name: "users",
    title: "GET /users/all",
    kind: "read",
    request: () => ({ method: "GET", path: "/users/all" })
  },
  {
    name: "connect-list",
    title: "Connect ListTasks",
    kind: "connect",
    request: () => ({ method: "POST", path: "/todo.TodoService/ListTasks", body: "{}" })
  }
]

export const listScenarioName = (endpoint: ListEndpoint, items: number) => `list-${endpoint.name}-${items}`

export const listScenario = (endpoint: ListEndpoint, items: number): ListScenario => ({
  name: listScenarioName(endpoint, items),
  title: endpoint.title,
  kind: endpoint.kind,
  expectedStatus: 200,
  request: endpoint.request,
  endpoint,
  items
})
