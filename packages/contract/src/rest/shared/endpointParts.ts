import { Schema } from "effect"
import { HttpApiSchema, OpenApi } from "effect/http-api"

/** A success in plain text: exactly the seed's words. */
export const text = <const Text extends string>(status: number, words: Text, description: string) =>
  Schema.Literal(words).annotate({ description }).pipe(HttpApiSchema.asText(), HttpApiSchema.status(status))
export const created = <S extends Schema.Top>(schema: S) => schema.pipe(HttpApiSchema.status(201))
/** A list answer, described for the operation that gives it. */
export const listOf = <S extends Schema.Top>(item: S, description: string) =>
  Schema.Array(item).annotate({ description })
/** 204, empty: the success of a delete or update that answers nothing. */
export const noContent = (description: string) => HttpApiSchema.Empty(204).annotate({ description })

/** The tag of a group in the OpenAPI document: its name and what it holds. */
export const tag = (title: string, description: string) => OpenApi.annotations({ title, description })

/** Said of every write that takes `Idempotency-Key` (the `Idempotency` middleware). */
export const idempotent =
  "Send `Idempotency-Key` to make a retry safe: a repeat within 24 hours gets the first answer again, marked `Idempotent-Replayed: true`."
