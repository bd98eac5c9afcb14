import { defaultScheduleSettings, ScheduleSettings } from "@club/core"
import { seedBesideBookings, seedRefusingConflicts } from "@club/test-support/rest"
import { Layer } from "effect"
import { describe } from "vitest"
import { clubForFile } from "../support/club.ts"

const club = clubForFile()
/** The club setting on: a layer giving core's ScheduleSettings reference, read by the stores at each write. */
const SeedRefusesConflicts = Layer.succeed(ScheduleSettings, {
  ...defaultScheduleSettings,
  seedRefusesConflicts: true
})
// A reference's layer adds no service to its type (`Layer<never>`), which `ports` does not take as is.
const refusing = clubForFile({ ports: SeedRefusesConflicts as Layer.Layer<unknown> })

describe("The seed's session writes beside the schedule's bookings, in process", () => {
  seedBesideBookings(club)
  seedRefusingConflicts(refusing)
})
