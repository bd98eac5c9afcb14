import { Config, Schema } from "effect"

/** A whole-number setting above 0 (an env variable), with its default: the background workers' tuning. */
export const positiveSetting = (name: string, fallback: number) =>
  Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), name).pipe(Config.withDefault(fallback))
