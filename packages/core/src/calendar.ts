/**
 * `@club/core/calendar`: the calendar feeds' renderer and use-cases, and the recurring series'
 * rules and use-cases, apart from the main entry so that what imports core for its schemas alone
 * (the contract, the SDK in a browser) does not carry the iCalendar and RRULE libraries and their
 * zone data. The server provides `CalendarFeedService.layer` and `SeriesService.layer` beside
 * `UseCasesLive`.
 */
export * from "./calendar/CalendarFeed.ts"
export * from "./domain/Recurrence.ts"
export * from "./usecases/CalendarFeedService.ts"
export * from "./usecases/PlannedSessionService.ts"
export * from "./usecases/SeriesExtension.ts"
export * from "./usecases/SeriesService.ts"
