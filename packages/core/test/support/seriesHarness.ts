import { Layer } from "effect"
import { type Actor, CoachCreate, CoachRepository, ScheduleSettings } from "../../src/index.ts"
import { SeriesService } from "../../src/calendar.ts"
import { InMemoryRepositories } from "../../src/testing.ts"

/** The coach every series test acts as. */
export const coach: Actor = {
  userId: 1 as Actor["userId"],
  role: "COACH",
  coachId: 1 as Actor["coachId"],
  athleteId: null,
  adminId: null
}

/** A club in Europe/Paris, with a horizon of four weeks and at most 50 occurrences a series. */
export const seriesSettings = { timeZone: "Europe/Paris", horizonWeeks: 4, maxOccurrences: 50 }

/** The coach's record: a series for no named coach is the calling coach's (the ownership rule). */
const coachRecord = Layer.effectDiscard(
  CoachRepository.use((coaches) => coaches.create(new CoachCreate({ id: coach.coachId, name: "Coach" })))
)

/** The series use-case over the in-memory store, with those settings and the coach's record. */
export const seriesLayer = Layer.merge(SeriesService.layer, coachRecord).pipe(
  Layer.provideMerge(InMemoryRepositories),
  Layer.provideMerge(Layer.succeed(ScheduleSettings, seriesSettings))
)
