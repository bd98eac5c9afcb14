import { TOKEN_EXPIRED_MESSAGE } from "./AccessToken.ts"
import type { SeenAnswer } from "./CallSettings.ts"
import { connectCodeTag } from "./ConnectCodeNames.ts"
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
