import { InvalidValue, TaskCreate } from "@club/core"
import { Effect, Schema, SchemaIssue } from "effect"
import type { CreateTaskRequest } from "@club/contract/todo"

/**
 * The bound of a failed `isMaxCodePoints` check (core counts characters as Unicode code points),
 * read from the check's own description.
 */
const maxLengthOf = (issue: SchemaIssue.Filter): number | undefined => {
  const representation = issue.filter.annotations?.representation
  const payload = representation?.id === "effect/schema/isMaxCodePoints" ? representation.payload : undefined
  const maxLength = typeof payload === "object" && payload !== null && "maxCodePoints" in payload
    ? payload.maxCodePoints
    : undefined
  return typeof maxLength === "number" ? maxLength : undefined
}

/** Phrases a failed check the way a caller reads it: "at most 200 characters", "must be a non-blank string". */
const checkHook: SchemaIssue.CheckHook = (issue) => {
  const maxLength = maxLengthOf(issue)
  if (maxLength !== undefined) return `at most ${maxLength} characters`
  const expected = issue.filter.annotations?.expected
  return typeof expected === "string" ? `must be ${expected}` : undefined
}

const format = SchemaIssue.makeFormatterStandardSchemaV1({ checkHook })

/** The request's fields checked by core's TaskCreate rules; a failure names the first offending field. */
export const decodeTaskCreate = (request: CreateTaskRequest): Effect.Effect<TaskCreate, InvalidValue> =>
  Schema.decodeUnknownEffect(TaskCreate)({ title: request.title, description: request.description }).pipe(
    Effect.mapError((error) => {
      const [first] = format(error.issue).issues
      return new InvalidValue({
        field: (first?.path ?? []).map(String).join(".") || "request",
        reason: first?.message ?? "is invalid"
      })
    })
  )
