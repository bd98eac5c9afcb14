import { OccurrenceChange, SeriesChange, SeriesCreate } from "@club/core"
import { SeriesService } from "@club/core/calendar"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toCoreInput } from "@club/contract/rest"
import { problems } from "../shared/problems.ts"
import { ServedApi } from "../ServedApi.ts"

/** Issue 17's series and conflicts endpoints under `/planning`: every failure is its category's problem. */
export const SeriesHandlers = HttpApiBuilder.group(
  ServedApi,
  "series",
  Effect.fn(function*(handlers) {
    const series = yield* SeriesService
    return handlers
      .handle("createSeries", ({ payload }) => series.create(toCoreInput(SeriesCreate, payload)).pipe(problems))
      .handle("getSeries", ({ params }) => series.read(params.id).pipe(problems))
      .handle("conflicts", ({ query }) => series.conflicts(query).pipe(problems))
      .handle("cancelSeries", ({ params }) => series.cancel(params.id).pipe(problems))
      .handle(
        "cancelOccurrence",
        ({ params, query }) => series.cancelOccurrence(params.id, params.sessionId, query.scope ?? "one").pipe(problems)
      )
      .handle(
        "changeSeries",
        ({ params, payload }) =>
          series.change(params.id, new SeriesChange(payload, { disableChecks: true })).pipe(problems)
      )
      .handle(
        "changeOccurrence",
        ({ params, payload, query }) =>
          series.changeOccurrence(
            params.id,
            params.sessionId,
            query.scope ?? "one",
            new OccurrenceChange(payload, { disableChecks: true })
          ).pipe(problems)
      )
  })
)
