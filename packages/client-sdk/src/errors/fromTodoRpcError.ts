import { TOKEN_EXPIRED_MESSAGE } from "../shared/AccessToken.ts"
import type { SeenAnswer } from "../shared/CallSettings.ts"
import { connectCodeTag } from "../shared/ConnectCodeNames.ts"
import type { TodoRpcError } from "../todo/TodoRpcError.ts"
import { ClubApiError } from "./ClubApiError.ts"

export const fromTodoRpcError = (error: TodoRpcError, seen: SeenAnswer): ClubApiError =>
  error.code === "unauthenticated" && /expired/i.test(error.message)
    ? new ClubApiError({
      tag: "TokenExpired",
      code: error.code,
      message: TOKEN_EXPIRED_MESSAGE,
      requestId: seen.requestId,
      cause: error
    })
    : new ClubApiError({
      tag: connectCodeTag(error.code),
      code: error.code,
      message: error.message,
      requestId: seen.requestId,
      cause: error
    })
