import { defaultScheduleSettings, ScheduleSettings } from "@club/core"
import { modelBasedSuite, modelFindings, modelTimeZone } from "@club/test-support/rest"
import { Layer } from "effect"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

/** The club's zone the model reads wall-clock times in, as `CLUB_TIMEZONE` sets it on the server. */
const InClubZone = Layer.succeed(ScheduleSettings, { ...defaultScheduleSettings, timeZone: modelTimeZone })
// A reference's layer adds no service to its type (`Layer<never>`), which `ports` does not take as is.
const club = clubForFile({ ports: InClubZone as Layer.Layer<unknown> })

describe("The model-based suite (issue 36), in process on the memory store", () => {
  modelBasedSuite(club, { numRuns: 40, maxCommands: 30, timeoutMs: 120_000 }, "in process, memory store")
  modelFindings(club)
})
