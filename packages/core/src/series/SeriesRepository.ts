import { Context, type Effect, type Option } from "effect"
import type { ScheduleConflict, UnknownReferences } from "../shared/Errors.ts"
import type { SeriesId, SessionId } from "../shared/Ids.ts"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"
import type { DoubleBooking, DoubleBookingPosition } from "../sessions/DoubleBooking.ts"
import type { Session } from "../sessions/Session.ts"
import type {
  OccurrenceValues,
  PlannedSessionCreate,
  Series,
  SeriesCancellation,
  SeriesCreate,
  SeriesRewrite
} from "./Series.ts"

/**
 * Recurring series and their occurrences, which are sessions (`isRecurrent` true) linked to the
 * series by the wall-clock time the rule gave them. A series has at most one session per
 * occurrence time, ever: a time up to `expandedUntil` is never created again (even when its session
 * was deleted), and two writers extending at once cannot both create one (the store refuses a
 * second session for the same series and time).
 */
export class SeriesRepository extends Context.Service<SeriesRepository, {
  /**
   * The series with a session per time of `occurrences` (each with the series' name, groupe,
   * coach, duree and athletes), all or nothing. The coach and athletes must exist
   * (`UnknownReferences`, `athleteIds` checked first). Each session books its coach and athletes
   * over `[creneau, creneau + duree minutes)` in the club's zone (`ScheduleSettings.timeZone`); one
   * already booked at an overlapping instant by another booked session refuses the whole series
   * (`ScheduleConflict` naming those sessions), also against writers committing meanwhile.
   */
  create(
    input: SeriesCreate,
    occurrences: ReadonlyArray<LocalDateTime>,
    expandedUntil: LocalDateTime
  ): Effect.Effect<Series, UnknownReferences | ScheduleConflict>
  findById(id: SeriesId): Effect.Effect<Option.Option<Series>>
  /** The series of `ids` that exist, in id order, in one read (a calendar feed's). */
  findMany(ids: ReadonlyArray<SeriesId>): Effect.Effect<ReadonlyArray<Series>>
  /**
   * Changes the series from its occurrence at `rewrite.from` on (`SeriesRewrite`), all or nothing,
   * and answers the series that holds those occurrences now (a new one with `continuation`). Past
   * occurrences are not touched: the caller names a `from` to come. Occurrences not overridden
   * take the values given (their revision one more); overridden ones keep theirs and only follow
   * the series. The changed occurrences are booked again: a coach or athlete booked elsewhere at
   * an overlapping instant refuses the change (`ScheduleConflict` naming those sessions); unknown
   * coach or athletes: `UnknownReferences`. An unknown series: nothing, `Option.none`.
   */
  rewrite(
    id: SeriesId,
    rewrite: SeriesRewrite
  ): Effect.Effect<Option.Option<Series>, UnknownReferences | ScheduleConflict>
  /**
   * Changes the occurrence `sessionId` of the series by itself: the values given, and `creneau`
   * when given; it becomes overridden (an exception later changes of the series leave alone) and
   * its revision one more. Booked again as `rewrite` books. Nothing when it is not an occurrence
   * of the series.
   */
  changeOccurrence(
    id: SeriesId,
    sessionId: SessionId,
    change: OccurrenceValues & { readonly creneau?: LocalDateTime }
  ): Effect.Effect<void, UnknownReferences | ScheduleConflict>
  /**
   * A session of its own (not recurrent) with its memberships, booking its coach and athletes as
   * a series' occurrences do, all or nothing: `UnknownReferences` (athletes first, then coach),
   * `ScheduleConflict` naming the sessions that hold the time. Answers the session as
   * `SessionRepository.findById` would read it then (it holds no activity).
   */
  createSession(input: PlannedSessionCreate): Effect.Effect<Session, UnknownReferences | ScheduleConflict>
  /**
   * Changes any session by the fields given (and `creneau`), its revision one more, and books it
   * again as `rewrite` does; an occurrence of a series becomes overridden (an exception). False
   * when there is no such session.
   */
  changeSession(
    id: SessionId,
    change: OccurrenceValues & { readonly creneau?: LocalDateTime }
  ): Effect.Effect<boolean, UnknownReferences | ScheduleConflict>
  /**
   * At most `limit` series not extended up to `until` yet and not ended before their
   * `expandedUntil`, those extended longest ago first (then by id), each without its occurrences
   * (`occurrences` empty: an extension needs the rule and `expandedUntil`, and the list grows with
   * the series). One statement.
   */
  dueForExtension(until: LocalDateTime, limit: number): Effect.Effect<ReadonlyArray<Series>>
  /**
   * Creates the sessions of the times in `occurrences` later than the series' `expandedUntil` and
   * not created yet, and moves `expandedUntil` forward to `until` (never back), in one transaction
   * that holds the series against every other writer of it (another extension, a change, an end).
   * Athletes deleted since the series was written are left out. A new occurrence whose coach or
   * athlete is already booked at an overlapping time is created without that booking (it shows as a
   * conflict), rather than failing the read that extended it. Nothing for an unknown series.
   *
   * While another writer holds the series it writes nothing and leaves the work to that writer,
   * rather than wait for it (issue 37: a reader waited behind each batch of the server's
   * extension). Answers whether it extended (false: the series was held, or is unknown).
   */
  extend(id: SeriesId, occurrences: ReadonlyArray<LocalDateTime>, until: LocalDateTime): Effect.Effect<boolean>
  /**
   * Ends the series before `from`: deletes its occurrences at or after `from` (their sessions,
   * with their memberships, bookings and activities, and its cancellations there), and no later
   * extension creates one there (`endsBefore` moves back to `from`, never forward). Nothing for an
   * unknown series.
   */
  endBefore(id: SeriesId, from: LocalDateTime): Effect.Effect<void>
  /**
   * Deletes the occurrence at `time` (its session, with its memberships, bookings and activities)
   * and, in the same transaction, remembers it as a cancellation of the series (`cancellations`),
   * its sequence one more than the greater of the series' and the session's revisions. The time
   * stays reached, so it is never created again. Nothing when there is no such session.
   */
  cancelAt(id: SeriesId, time: LocalDateTime): Effect.Effect<void>
  /**
   * The occurrences of the series of `ids` cancelled by themselves (`cancelAt`), by series then
   * time, in one read (a calendar feed's). `rewrite` moves those from `from` on with the
   * occurrences (to the new series, shifted by `shiftSeconds`); `endBefore` drops those it ends.
   */
  cancellations(ids: ReadonlyArray<SeriesId>): Effect.Effect<ReadonlyArray<SeriesCancellation>>
  /**
   * Every pair of sessions, however written, that books the same coach or athlete at overlapping
   * instants in the club's zone (sessions without a creneau, or with a duree under one minute or
   * over ten years, book no one): ordered by session, other session, coach, then athlete. Computed
   * over the sessions themselves, not the bookings, so it shows what the seed's endpoints let in.
   * At most `limit` of them, those after `after` in that order (issue 37: a page, in one statement
   * whose work grows with the page, not with every pair there is).
   */
  conflicts(after: DoubleBookingPosition | undefined, limit: number): Effect.Effect<ReadonlyArray<DoubleBooking>>
}>()("@club/core/SeriesRepository") {}
