import { Code } from "@connectrpc/connect"

/**
 * Each code's name and HTTP status in the Connect protocol's unary error answer (the protocol
 * spec, "Error Codes" and "Unary-Response"). connect-es's own tables are not part of its public API.
 */
const codes: Record<Code, { readonly name: string; readonly status: number }> = {
  [Code.Canceled]: { name: "canceled", status: 499 },
  [Code.Unknown]: { name: "unknown", status: 500 },
  [Code.InvalidArgument]: { name: "invalid_argument", status: 400 },
  [Code.DeadlineExceeded]: { name: "deadline_exceeded", status: 504 },
  [Code.NotFound]: { name: "not_found", status: 404 },
  [Code.AlreadyExists]: { name: "already_exists", status: 409 },
  [Code.PermissionDenied]: { name: "permission_denied", status: 403 },
  [Code.ResourceExhausted]: { name: "resource_exhausted", status: 429 },
  [Code.FailedPrecondition]: { name: "failed_precondition", status: 400 },
  [Code.Aborted]: { name: "aborted", status: 409 },
  [Code.OutOfRange]: { name: "out_of_range", status: 400 },
  [Code.Unimplemented]: { name: "unimplemented", status: 501 },
  [Code.Internal]: { name: "internal", status: 500 },
  [Code.Unavailable]: { name: "unavailable", status: 503 },
  [Code.DataLoss]: { name: "data_loss", status: 500 },
  [Code.Unauthenticated]: { name: "unauthenticated", status: 401 }
}

/**
 * A failed Connect unary call's answer: its HTTP status and its JSON body, `{"code", "message"}`,
 * the message left out when empty, as connect-node writes it (the project's errors carry no details).
 */
export const connectErrorAnswer = (code: Code, message: string): { readonly status: number; readonly body: Buffer } => {
  const { name, status } = codes[code]
  return { status, body: Buffer.from(JSON.stringify(message === "" ? { code: name } : { code: name, message })) }
}
