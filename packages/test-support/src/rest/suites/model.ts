import fc from "fast-check"
import { it } from "vitest"
import type { Club } from "../Club.ts"
import {
  clearedCast,
  debugCounts,
  emptyModel,
  type Model,
  modelCommands,
  type Real,
  setUpCast
} from "../model/model.ts"

export { modelTimeZone } from "../model/model.ts"

/** How much of the command space a harness explores: runs, and commands per run. */
export interface ModelBudget {
  readonly numRuns: number
  readonly maxCommands: number
  readonly timeoutMs: number
}

/**
 * The model-based suite (issue 36): random sequences of valid and invalid commands by an admin, two
 * coaches, four athletes and a guardian, on sessions, series, groups and memberships (issue 41),
 * the audit trail, a person's export and erasure (issue 43), each checked against the reference
 * model (`../model/model.ts`). The
 * API must run with `CLUB_TIMEZONE` = `modelTimeZone`. `MODEL_SEED` (and `MODEL_PATH`, from a
 * failure's report) replays a run; `MODEL_RUNS` overrides the number of runs; `MODEL_DEBUG=1` prints the
 * requests sent by endpoint and status.
 */
export const modelBasedSuite = (club: () => Club, budget: ModelBudget, where: string) => {
  it(`agrees with the model of the docs over random command sequences (${where})`, async () => {
    const seed = process.env["MODEL_SEED"] === undefined
      ? Date.now() ^ (Math.random() * 0x7fffffff)
      : Number(process.env["MODEL_SEED"])
    const path = process.env["MODEL_PATH"]
    const numRuns = process.env["MODEL_RUNS"] === undefined ? budget.numRuns : Number(process.env["MODEL_RUNS"])
    const stats = { commands: 0, requests: 0 }
    let cast: Real | undefined
    const started = Date.now()
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.commands(modelCommands, { maxCommands: budget.maxCommands, size: "max" }),
          async (commands) => {
            const setup = async (): Promise<{ model: Model; real: Real }> => {
              cast ??= await setUpCast(club(), stats)
              return { model: emptyModel(), real: await clearedCast(cast) }
            }
            await fc.asyncModelRun(setup, commands)
          }
        ),
        { seed, numRuns, ...(path === undefined ? {} : { path }), endOnFailure: process.env["MODEL_NO_SHRINK"] === "1" }
      )
    } finally {
      if (process.env["MODEL_DEBUG"] !== undefined) {
        console.info([...debugCounts].sort().map(([key, n]) => `${key}: ${n}`).join("\n"))
      }
      console.info(
        `Model-based suite (${where}): seed ${seed} (replay with MODEL_SEED=${seed}), ${stats.commands} commands, ${stats.requests} requests in ${
          Date.now() - started
        } ms`
      )
    }
  }, budget.timeoutMs)
}
