import { defaultScheduleSettings } from "@club/core"
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { appConfig } from "../src/AppConfig.ts"

const parse = (env: Record<string, string>) =>
  appConfig.parse(ConfigProvider.fromUnknown({ DATA_DIR: "memory://", ...env })).pipe(
    Effect.map((config) => config.schedule)
  )

describe("the schedule's configuration", () => {
  it.effect("defaults to UTC and 26 weeks ahead", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* parse({}), defaultScheduleSettings)
    }))

  it.effect("reads CLUB_TIMEZONE (spelled as the zone database does) and the SCHEDULE_* variables", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(
        yield* parse({
          CLUB_TIMEZONE: " europe/paris ",
          SCHEDULE_HORIZON_WEEKS: "10",
          SCHEDULE_MAX_OCCURRENCES: "50",
          SCHEDULE_SEED_REFUSES_CONFLICTS: "true"
        }),
        {
          ...defaultScheduleSettings,
          timeZone: "Europe/Paris",
          horizonWeeks: 10,
          maxOccurrences: 50,
          seedRefusesConflicts: true
        }
      )
      assert.isFalse((yield* parse({ SCHEDULE_SEED_REFUSES_CONFLICTS: "off" })).seedRefusesConflicts)
    }))

  it.effect("refuses a SCHEDULE_SEED_REFUSES_CONFLICTS other than true, false, on or off, naming it", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(parse({ SCHEDULE_SEED_REFUSES_CONFLICTS: "yes" }))
      assert.include(String(error), "SCHEDULE_SEED_REFUSES_CONFLICTS")
    }))

  it.effect("refuses a time zone the runtime does not know, naming the variable", () =>
    Effect.gen(function*() {
      for (const zone of ["Mars/Olympus", "+02:00", "Paris"]) {
        const error = yield* Effect.flip(parse({ CLUB_TIMEZONE: zone }))
        assert.include(String(error), "CLUB_TIMEZONE")
      }
    }))

  it.effect("refuses a horizon that is not a positive whole number of weeks", () =>
    Effect.gen(function*() {
      for (const weeks of ["0", "-1", "1.5", "many"]) {
        yield* Effect.flip(parse({ SCHEDULE_HORIZON_WEEKS: weeks }))
      }
    }))
})
