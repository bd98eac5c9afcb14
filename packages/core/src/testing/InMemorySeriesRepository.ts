import { Effect, Layer, Option } from "effect"
import type { SeriesId, SessionId } from "../domain/Ids.ts"
import type { LocalDateTime } from "../domain/LocalDateTime.ts"
import { Occurrence, Series, type SeriesCreate } from "../domain/Series.ts"
import { SeriesRepository } from "../ports/SeriesRepository.ts"
import { traced } from "../tracing/traced.ts"
import { InMemoryStore, type StoredSeries } from "./InMemoryStore.ts"

export const InMemorySeriesRepository = Layer.effect(
  SeriesRepository,
  Effect.gen(function*() {
    const { athletes, coaches, series, sessions } = yield* InMemoryStore

    /** The series as answered: the occurrences whose session still exists, in time order. */
    const read = (stored: StoredSeries) =>
      new Series({
        ...stored,
        occurrences: [...stored.occurrences]
          .filter(([, sessionId]) => sessions.has(sessionId))
          .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
          .map(([occurrenceStart, sessionId]) => new Occurrence({ sessionId, occurrenceStart }))
      })

    /** A session per time not created yet, for the athletes that still exist. */
    const addOccurrences = (stored: StoredSeries, times: ReadonlyArray<LocalDateTime>) => {
      const athleteIds = stored.athleteIds.filter((id) => athletes.has(id))
      for (const creneau of times) {
        if (stored.occurrences.has(creneau)) continue
        const id = sessions.newId(null) as SessionId
        sessions.insert({
          id,
          name: stored.name,
          isRecurrent: true,
          creneau,
          duree: stored.duree,
          groupe: stored.groupe,
          coachId: stored.coachId,
          athleteIds: new Set(athleteIds)
        })
        stored.occurrences.set(creneau, id)
      }
    }

    const create = traced("SeriesRepository.create")(
      function*(input: SeriesCreate, occurrences: ReadonlyArray<LocalDateTime>, expandedUntil: LocalDateTime) {
        const unknown = athletes.unknownReferences("athleteIds", input.athleteIds) ??
          (input.coachId === null ? undefined : coaches.unknownReferences("coachId", [input.coachId]))
        if (unknown !== undefined) return yield* unknown
        const stored = series.insert({
          ...input,
          id: series.newId(null) as SeriesId,
          athleteIds: [...new Set(input.athleteIds)].sort((a, b) => a - b),
          expandedUntil,
          occurrences: new Map()
        })
        addOccurrences(stored, occurrences)
        return read(stored)
      }
    )

    const findById = traced("SeriesRepository.findById")(function*(id: SeriesId) {
      return Option.map(Option.fromNullishOr(series.get(id)), read)
    })

    const extend = traced("SeriesRepository.extend")(
      function*(id: SeriesId, occurrences: ReadonlyArray<LocalDateTime>, until: LocalDateTime) {
        const stored = series.get(id)
        if (stored === undefined) return
        addOccurrences(stored, occurrences.filter((time) => time > stored.expandedUntil))
        if (until > stored.expandedUntil) series.replace({ ...stored, expandedUntil: until })
      }
    )

    return SeriesRepository.of({ create, findById, extend })
  })
)
