import { Schema } from "effect"

/**
 * A schema as the OpenAPI document names it: `identifier` becomes its name under
 * `components/schemas` (what generated clients call the type), with a description and examples.
 * The examples are written as they travel (JSON) and decoded here, at load, so that one which the
 * schema refuses fails at once instead of misleading a reader of the document.
 */
export const documented = <S extends Schema.Top & { readonly DecodingServices: never }>(
  schema: S,
  identifier: string,
  description: string,
  examples: ReadonlyArray<unknown> = []
): S["Rebuild"] => {
  const decode = Schema.decodeUnknownSync(schema as unknown as Schema.Codec<S["Type"], unknown>)
  return schema.annotate({
    identifier,
    description,
    ...(examples.length === 0 ? {} : { examples: examples.map((example) => decode(example)) })
  })
}
