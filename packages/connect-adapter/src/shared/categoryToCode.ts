import type { ErrorCategory } from "@club/core"
import { Code } from "@connectrpc/connect"

const codes: Record<ErrorCategory, Code> = {
  NotFound: Code.NotFound,
  Invalid: Code.InvalidArgument,
  Conflict: Code.AlreadyExists,
  Forbidden: Code.PermissionDenied,
  Unauthenticated: Code.Unauthenticated,
  RateLimited: Code.ResourceExhausted
}

/** The one place where a domain error's category becomes a Connect code. */
export const categoryToCode = (category: ErrorCategory): Code => codes[category]
