import type { IdRange, Seeded } from "./database/seed.ts"

/** What the load generator needs to build requests: the seeded ids and the caller's credentials. */
export interface LoadContext {
  readonly seeded: Seeded
  readonly token: string
  readonly login: { readonly name: string; readonly password: string }
  /** A calendar feed's path and current ETag (the schedule phase). */
  readonly feed?: { readonly path: string; readonly etag: string }
  /** Which run of the load generator this is (runLoad numbers them from 1; 0 outside it), for writes that need a slot of their own. */
  readonly run?: number
}

export interface BenchRequest {
  readonly method: "GET" | "POST" | "PUT"
  readonly path: string
  readonly body?: string
  readonly headers?: Readonly<Record<string, string>>
  /** A gRPC scenario's request message (protobuf), sent framed instead of `body`. */
  readonly message?: Uint8Array
}

export type ScenarioKind = "read" | "write" | "login" | "connect" | "floor"

export interface Scenario {
  readonly name: string
  /** As the report shows it. */
  readonly title: string
  readonly kind: ScenarioKind
  /** The status a successful answer has; anything else is counted as an error. */
  readonly expectedStatus: number
  /**
   * Concurrent connections, when not the run's default. A login is a slow hash on libuv's four
   * threads: more connections than that only queue. A full session list is a large answer.
   */
  readonly connections?: number
  /** Sent as gRPC over HTTP/2 (`load/grpc.ts`) rather than HTTP/1.1 by autocannon. */
  readonly protocol?: "grpc"
  readonly request: (context: LoadContext) => BenchRequest
}

export const pick = (range: IdRange): number => range.min + Math.floor(Math.random() * (range.max - range.min + 1))

export const distinct = (range: IdRange, count: number): Array<number> => {
  const ids = new Set<number>()
  while (ids.size < count) ids.add(pick(range))
  return [...ids]
}

const json = (value: unknown) => JSON.stringify(value)

export const scenarios: ReadonlyArray<Scenario> = [
  {
    name: "health",
    title: "GET /health/live (floor: no auth, no SQL)",
    kind: "floor",
    expectedStatus: 200,
    request: () => ({ method: "GET", path: "/health/live" })
  },
  {
    name: "session-get",
    title: "GET /session/{id}",
    kind: "read",
    expectedStatus: 200,
    request: ({ seeded }) => ({ method: "GET", path: `/session/${pick(seeded.sessions)}` })
  },
  {
    name: "session-all",
    title: "GET /session/all",
    kind: "read",
    expectedStatus: 200,
    connections: 10,
    request: () => ({ method: "GET", path: "/session/all" })
  },
  {
    name: "athlete-between",
    title: "GET /athletes/athletes/{id}/session/between/…",
    kind: "read",
    expectedStatus: 200,
    request: ({ seeded }) => ({
      method: "GET",
      path: `/athletes/athletes/${pick(seeded.athletes)}/session/between/2026-02-01/2026-06-01`
    })
  },
  {
    name: "connect-list",
    title: "Connect ListTasks",
    kind: "connect",
    expectedStatus: 200,
    request: () => ({ method: "POST", path: "/todo.TodoService/ListTasks", body: "{}" })
  },
  {
    name: "session-create",
    title: "POST /session/create",
    kind: "write",
    expectedStatus: 201,
    request: ({ seeded }) => ({
      method: "POST",
      path: "/session/create",
      body: json({
        name: "Bench session",
        isRecurrent: false,
        creneau: "2026-05-04T18:30:00",
        duree: 90,
        groupe: "Bench",
        coachId: pick(seeded.coaches),
        athleteIds: distinct(seeded.athletes, 10),
        activiteIds: []
      })
    })
  },
  {
    name: "session-update",
    title: "PUT /session/update/{id}",
    kind: "write",
    expectedStatus: 204,
    request: ({ seeded }) => ({
      method: "PUT",
      path: `/session/update/${pick(seeded.sessions)}`,
      body: json({ duree: 30 + Math.floor(Math.random() * 90), athleteIds: distinct(seeded.athletes, 10) })
    })
  },
  {
    name: "activity-create",
    title: "POST /activite/create",
    kind: "write",
    expectedStatus: 201,
    request: ({ seeded }) => ({
      method: "POST",
      path: "/activite/create",
      body: json({
        name: "Bench drill",
        theme: "endurance",
        duree: 20,
        dataActivite: ["cones", "stopwatch"],
        sessionId: pick(seeded.sessions)
      })
    })
  },
  {
    name: "connect-create",
    title: "Connect CreateTask",
    kind: "connect",
    expectedStatus: 200,
    request: () => ({
      method: "POST",
      path: "/todo.TodoService/CreateTask",
      body: json({ title: "Bench task", description: "Created by the load generator" })
    })
  },
  {
    name: "login",
    title: "POST /auth/login",
    kind: "login",
    expectedStatus: 200,
    connections: 4,
    request: ({ login }) => ({ method: "POST", path: "/auth/login", body: json(login) })
  }
]
