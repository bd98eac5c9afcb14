/**
 * `@club/core/calendar`: the calendar feeds' renderer and use-cases, and the recurring series'
 * rules and use-cases, apart from the main entry so that what imports core for its schemas alone
 * (the contract, the SDK in a browser) does not carry the iCalendar and RRULE libraries and their
 * zone data. The server provides `CalendarFeedService.layer` and `SeriesService.layer` beside
 * `UseCasesLive`.
 */
export * from "./feeds/CalendarFeed.ts"
export * from "./series/Recurrence.ts"
export * from "./feeds/CalendarFeedService.ts"
export * from "./planning/PlannedSessionService.ts"
export * from "./series/SeriesExtension.ts"
export * from "./series/SeriesService.ts"
