/** Connect's error codes as they appear on the wire (`{"code":"invalid_argument", ...}`). */
export type ConnectCodeName =
  | "canceled"
  | "unknown"
  | "invalid_argument"
  | "deadline_exceeded"
  | "not_found"
  | "already_exists"
  | "permission_denied"
  | "resource_exhausted"
  | "failed_precondition"
  | "aborted"
  | "out_of_range"
  | "unimplemented"
  | "internal"
  | "unavailable"
  | "data_loss"
  | "unauthenticated"

type PascalCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Capitalize<Head>}${PascalCase<Tail>}`
  : Capitalize<S>

/** A Connect code by its name in Connect's `Code` enum: `invalid_argument` → `InvalidArgument`. */
export type ConnectCodeTag = PascalCase<ConnectCodeName>

export const connectCodeTag = (name: ConnectCodeName): ConnectCodeTag =>
  name.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase()) as ConnectCodeTag
