import ICAL from "ical.js"

/** One occurrence as a calendar app computes it from a feed: its UID, start and end as instants (ISO, UTC), and status. */
export interface Expanded {
  readonly uid: string
  readonly start: string
  readonly end: string | null
  readonly summary: string
  readonly status: string | null
  readonly sequence: number
}

/**
 * Parses a feed with ical.js, as a calendar app would, and expands every series (RRULE, EXDATE,
 * RECURRENCE-ID) up to `limit` occurrences each, its zones read from the feed's VTIMEZONEs.
 */
export const expandFeed = (text: string, limit = 500): ReadonlyArray<Expanded> => {
  const calendar = new ICAL.Component(ICAL.parse(text))
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(new ICAL.Timezone(zone))
  const events = calendar.getAllSubcomponents("vevent").map((component) => new ICAL.Event(component))
  const masters = events.filter((event) => !event.isRecurrenceException())
  for (const exception of events.filter((event) => event.isRecurrenceException())) {
    masters.find((master) => master.uid === exception.uid)?.relateException(exception)
  }
  const statusOf = (event: ICAL.Event) => (event.component.getFirstPropertyValue("status") as string | null) ?? null
  const out: Array<Expanded> = []
  for (const master of masters) {
    if (!master.isRecurring()) {
      out.push({
        uid: master.uid,
        start: master.startDate.toJSDate().toISOString(),
        end: master.component.hasProperty("dtend") ? master.endDate.toJSDate().toISOString() : null,
        summary: master.summary,
        status: statusOf(master),
        sequence: master.sequence
      })
      continue
    }
    const iterator = master.iterator()
    for (
      let next = iterator.next(), n = 0;
      next !== undefined && next !== null && n < limit;
      next = iterator.next(), n++
    ) {
      const details = master.getOccurrenceDetails(next)
      out.push({
        uid: master.uid,
        start: details.startDate.toJSDate().toISOString(),
        end: details.endDate.toJSDate().toISOString(),
        summary: details.item.summary,
        status: statusOf(details.item),
        sequence: details.item.sequence
      })
    }
  }
  return out
}
