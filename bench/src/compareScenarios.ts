import { createTaskMessage, listTasksMessage } from "./load/grpc.ts"
import { distinct, type Scenario, scenarios } from "./scenarios.ts"

/** Planned sessions of one load-generator run start this many half-hours after the previous run's. */
const slotsPerRun = 20_000
let planned = 0

/**
 * Scenarios the bare baseline cannot answer (it serves neither gRPC nor the planning), measured
 * only when two builds of the project, or two databases, are compared (BENCH_COMPARE_MAIN,
 * BENCH_COMPARE_AUDIT): Connect's unary calls as a gRPC client makes them (issue 39: the gRPC
 * calls lost the unary shortcut), and a planning write, which books its coach and athletes.
 */
export const compareScenarios: ReadonlyArray<Scenario> = [
  {
    name: "grpc-list",
    title: "ListTasks over gRPC (HTTP/2)",
    kind: "connect",
    expectedStatus: 200,
    protocol: "grpc",
    request: () => ({ method: "POST", path: "/todo.TodoService/ListTasks", message: listTasksMessage() })
  },
  {
    name: "grpc-create",
    title: "CreateTask over gRPC (HTTP/2)",
    kind: "connect",
    expectedStatus: 200,
    protocol: "grpc",
    request: () => ({
      method: "POST",
      path: "/todo.TodoService/CreateTask",
      message: createTaskMessage("Bench task", "Created by the load generator")
    })
  },
  {
    name: "planning-create",
    title: "POST /planning/sessions (10 athletes booked)",
    kind: "write",
    expectedStatus: 201,
    // Each session at a half-hour of its own, 20 minutes long, so that no booking is a double one:
    // the run's number (runLoad's) and the request's give the slot.
    request: ({ run = 0, seeded }) => {
      const slot = run * slotsPerRun + planned++
      return {
        method: "POST",
        path: "/planning/sessions",
        body: JSON.stringify({
          name: "Bench planned session",
          groupe: null,
          coachId: seeded.coaches.min,
          athleteIds: distinct(seeded.athletes, 10),
          duree: 20,
          creneau: new Date(Date.UTC(2030, 0, 1) + slot * 1_800_000).toISOString().slice(0, 19)
        })
      }
    }
  }
]

/**
 * The throughput phase's scenarios with the compared ones, each beside its kin (gRPC after Connect,
 * the planning write after the other writes), reads still before writes and the login last.
 */
export const comparedThroughputScenarios: ReadonlyArray<Scenario> = scenarios.flatMap((scenario) => {
  const named = (name: string) => compareScenarios.filter((s) => s.name === name)
  switch (scenario.name) {
    case "connect-list":
      return [scenario, ...named("grpc-list")]
    case "connect-create":
      return [scenario, ...named("grpc-create"), ...named("planning-create")]
    default:
      return [scenario]
  }
})
