import { Data, type Schema } from "effect"

/** Arguments of a Promise-face call that the contract's schemas refuse; raised before anything is sent. */
export class InvalidInput extends Data.TaggedError("InvalidInput")<{
  readonly message: string
  readonly cause: Schema.SchemaError
}> {}
