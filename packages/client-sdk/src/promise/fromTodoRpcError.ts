import { TOKEN_EXPIRED_MESSAGE } from "../AccessToken.ts"
import { connectCodeTag } from "../todo/ConnectCodeName.ts"
import type { TodoRpcError } from "../todo/TodoRpcError.ts"
import { ClubApiError } from "./ClubApiError.ts"

export const fromTodoRpcError = (error: TodoRpcError): ClubApiError =>
  error.code === "unauthenticated" && /expired/i.test(error.message)
    ? new ClubApiError({ tag: "TokenExpired", code: error.code, message: TOKEN_EXPIRED_MESSAGE, cause: error })
    : new ClubApiError({ tag: connectCodeTag(error.code), code: error.code, message: error.message, cause: error })
