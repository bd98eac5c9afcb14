import { Code } from "@connectrpc/connect"

/** Connect's error codes as they appear on the wire (`{"code":"invalid_argument", ...}`). */
const names = {
  [Code.Canceled]: "canceled",
  [Code.Unknown]: "unknown",
  [Code.InvalidArgument]: "invalid_argument",
  [Code.DeadlineExceeded]: "deadline_exceeded",
  [Code.NotFound]: "not_found",
  [Code.AlreadyExists]: "already_exists",
  [Code.PermissionDenied]: "permission_denied",
  [Code.ResourceExhausted]: "resource_exhausted",
  [Code.FailedPrecondition]: "failed_precondition",
  [Code.Aborted]: "aborted",
  [Code.OutOfRange]: "out_of_range",
  [Code.Unimplemented]: "unimplemented",
  [Code.Internal]: "internal",
  [Code.Unavailable]: "unavailable",
  [Code.DataLoss]: "data_loss",
  [Code.Unauthenticated]: "unauthenticated"
} as const satisfies Record<Code, string>

export type ConnectCodeName = (typeof names)[Code]

export const connectCodeName = (code: Code): ConnectCodeName => names[code]

/** `invalid_argument` → `InvalidArgument`: the name of the code in Connect's `Code` enum. */
export const connectCodeTag = (name: ConnectCodeName): keyof typeof Code =>
  name.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase()) as keyof typeof Code
