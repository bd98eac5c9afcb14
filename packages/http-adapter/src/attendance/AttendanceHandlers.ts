import { AttendanceService, AttendanceSettings, PresenceInput, PresenceMark, ReplyInput } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toCoreInput } from "@club/contract/rest"
import { problems } from "../shared/problems.ts"
import { ServedApi } from "../ServedApi.ts"

/** Issue 18's attendance endpoints under `/attendance`: every failure is its category's problem. */
export const AttendanceHandlers = HttpApiBuilder.group(
  ServedApi,
  "attendance",
  Effect.fn(function*(handlers) {
    const attendance = yield* AttendanceService
    return handlers
      .handle(
        "configureReplies",
        ({ params, payload }) =>
          attendance.configure(
            params.id,
            toCoreInput(AttendanceSettings, payload, { keepNull: ["capacity", "replyCutoff"] })
          ).pipe(problems)
      )
      .handle("sessionReplies", ({ params }) => attendance.replies(params.id).pipe(problems))
      .handle(
        "invited",
        ({ params, query: { cursor, limit } }) => attendance.invited(params.id, { cursor, limit }).pipe(problems)
      )
      .handle(
        "athleteSessions",
        ({ params, query: { cursor, from, limit, to } }) =>
          attendance.athleteSessions(params.id, from, to, { cursor, limit }).pipe(problems)
      )
      .handle(
        "reply",
        ({ params, payload, query }) =>
          attendance.reply(params.id, params.sessionId, toCoreInput(ReplyInput, payload), query.scope ?? "one").pipe(
            problems
          )
      )
      .handle(
        "recordPresence",
        ({ params, payload }) =>
          attendance.mark(
            params.id,
            new PresenceInput({ marks: payload.marks.map((m) => new PresenceMark(m)) }, { disableChecks: true })
          ).pipe(problems)
      )
      .handle("sessionPresence", ({ params }) => attendance.presence(params.id).pipe(problems))
      .handle("figures", ({ query }) => attendance.figures(query.from, query.to).pipe(problems))
      .handle(
        "athleteFigures",
        ({ params, query }) => attendance.athleteFigures(params.id, query.from, query.to).pipe(problems)
      )
      .handle("exportSeason", ({ query }) => attendance.exportSeason(query.from, query.to).pipe(problems))
  })
)
