import { HttpApi } from "effect/http-api"
import type { SchemaAST } from "effect"

/**
 * The body decoding of the project's own endpoint groups (planning, series, attendance, webhooks,
 * feed token): a member the body's schema does not declare is refused, a 400 naming it (a field
 * misspelt, or one of another endpoint, such as a series' `start` sent to an occurrence, would
 * otherwise be dropped without a word). The seed's endpoints keep ignoring unknown members, as
 * the seed does (docs/specification/CONTRACT.md). Declared once per group, as an annotation its
 * endpoints inherit.
 */
export const strictBodies: readonly [typeof HttpApi.PayloadParseOptions, SchemaAST.ParseOptions] = [
  HttpApi.PayloadParseOptions,
  { onExcessProperty: "error" }
]
