import type { DataSet } from "./database/seed.ts"

const env = process.env
const number = (name: string, fallback: number) => (env[name] === undefined ? fallback : Number(env[name]))
const list = (name: string) => env[name]?.split(",").map((s) => s.trim()).filter((s) => s.length > 0)

export const phaseNames = [
  "throughput",
  "lists",
  "queries",
  "plans",
  "memory",
  "embedded",
  "schedule",
  "attendance",
  "membership",
  "observability",
  "allocations",
  "worstInputs",
  "retention"
] as const
export type PhaseName = (typeof phaseNames)[number]

/** What `pnpm bench` runs unless BENCH_PHASES says otherwise; `observability` is asked for by name. */
export const defaultPhases: ReadonlyArray<PhaseName> = [
  "throughput",
  "lists",
  "queries",
  "plans",
  "memory",
  "embedded",
  "schedule",
  "attendance",
  "membership",
  "allocations",
  "worstInputs"
]

/**
 * What stands in the baseline's place when two builds, or two databases, are compared side by side
 * (BENCH_COMPARE_MAIN, BENCH_COMPARE_AUDIT; README "Comparing two builds"): another build of the
 * server, or this build on a database whose audit triggers are disabled.
 */
export type Comparison =
  | {
    readonly kind: "build"
    readonly label: string
    readonly main: string
    /** BENCH_PROJECT_AUDIT=off: the project's own database without audit triggers, to see what else differs. */
    readonly projectAuditOff: boolean
    /**
     * BENCH_COMPARED_AUDIT=project: the project's audit trail set on the other build's database, so
     * that both write the same entries (a build older than the trail against this one with the trail).
     */
    readonly comparedWithProjectAudit: boolean
  }
  | { readonly kind: "auditOff"; readonly label: string }

const comparison = (): Comparison | undefined => {
  const main = env["BENCH_COMPARE_MAIN"]
  const audit = env["BENCH_COMPARE_AUDIT"]
  if (main !== undefined && audit !== undefined) {
    throw new Error("set BENCH_COMPARE_MAIN or BENCH_COMPARE_AUDIT, not both")
  }
  const projectAudit = env["BENCH_PROJECT_AUDIT"]
  if (projectAudit !== undefined && (projectAudit !== "off" || main === undefined)) {
    throw new Error(`BENCH_PROJECT_AUDIT=${projectAudit}: the one value is off, with BENCH_COMPARE_MAIN`)
  }
  const comparedAudit = env["BENCH_COMPARED_AUDIT"]
  if (comparedAudit !== undefined && (comparedAudit !== "project" || main === undefined)) {
    throw new Error(`BENCH_COMPARED_AUDIT=${comparedAudit}: the one value is project, with BENCH_COMPARE_MAIN`)
  }
  if (comparedAudit !== undefined && projectAudit !== undefined) {
    throw new Error("set BENCH_COMPARED_AUDIT or BENCH_PROJECT_AUDIT, not both")
  }
  if (main !== undefined) {
    return {
      kind: "build",
      label: env["BENCH_COMPARE_LABEL"] ?? "before",
      main,
      projectAuditOff: projectAudit === "off",
      comparedWithProjectAudit: comparedAudit === "project"
    }
  }
  if (audit === undefined) return undefined
  if (audit !== "off") throw new Error(`BENCH_COMPARE_AUDIT=${audit}: the one value is off`)
  return { kind: "auditOff", label: "audit off" }
}

/** The phases a comparison runs unless BENCH_PHASES says otherwise: the audit's cost is a writes' matter. */
const comparedPhases: Record<Comparison["kind"] | "none", ReadonlyArray<PhaseName>> = {
  none: defaultPhases,
  build: ["throughput", "lists"],
  auditOff: ["throughput"]
}

/** What a run measures; every knob has an environment variable, for quick partial runs. */
export const settings = {
  /** A PostgreSQL server the bench may create and drop databases on (trust or password in the URL). */
  serverUrl: env["BENCH_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres",
  connections: number("BENCH_CONNECTIONS", 50),
  warmupSeconds: number("BENCH_WARMUP", 3),
  durationSeconds: number("BENCH_DURATION", 10),
  /** The measured seconds of each server are split into this many runs, alternating between servers. */
  rounds: number("BENCH_ROUNDS", 2),
  /** LOG_LEVEL of the project's servers (`debug` logs every request and every 503's cause). */
  logLevel: env["BENCH_LOG_LEVEL"] ?? "info",
  /** Scenario names to run (default: all). */
  scenarios: list("BENCH_SCENARIOS"),
  phases: (list("BENCH_PHASES") ?? comparedPhases[comparison()?.kind ?? "none"]) as ReadonlyArray<PhaseName>,
  /** Another build, or this one without audit triggers, in the baseline's place (throughput and lists only). */
  comparison: comparison(),
  /** Start the project's server and the baseline with `--cpu-prof`, profiles under bench/.tmp/profiles/<server>. */
  profile: env["BENCH_PROFILE"] === "1",
  /** Write results/ (off for partial runs that should not replace the committed results). */
  writeResults: env["BENCH_WRITE_RESULTS"] !== "0",
  dataSet: { coaches: 50, athletes: 1_000, sessions: 5_000, tasks: 100 } satisfies DataSet,
  /** Entries in the answers of the lists phase. */
  listSizes: (list("BENCH_LIST_SIZES") ?? ["1", "50", "500"]).map(Number),
  /** Measured and warm-up seconds of each list scenario on the embedded database (one run each, no baseline). */
  embeddedListSeconds: number("BENCH_EMBEDDED_LIST_DURATION", Math.min(4, number("BENCH_DURATION", 10))),
  embeddedListWarmupSeconds: number("BENCH_EMBEDDED_LIST_WARMUP", 2),
  memorySteps: (list("BENCH_MEMORY_STEPS") ?? ["10000", "50000", "100000"]).map(Number),
  /** Requests of each scenario the allocations phase samples, on each server (after half as many to warm up). */
  allocationRequests: number("BENCH_ALLOCATION_REQUESTS", 10_000),
  /** Rounds of the attendance phase's bursts (after one that warms up). */
  attendanceRounds: number("BENCH_ATTENDANCE_ROUNDS", 10),
  /** Outbox events the retention phase seeds and purges (issue 43 asks for 10 million). */
  retentionEvents: number("BENCH_RETENTION_EVENTS", 10_000_000),
  /** Rows per batch of the retention phase's purge (RETENTION_BATCH_SIZE's default on PostgreSQL). */
  retentionBatchSize: number("BENCH_RETENTION_BATCH_SIZE", 1000),
  /** Callers sending requests to the project while the retention phase purges. */
  retentionClients: number("BENCH_RETENTION_CLIENTS", 4)
}
