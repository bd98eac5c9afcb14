/** `@club/client-sdk/todo`: `todo.TodoService` alone, both faces. */

// ---- Promise face
export type { ClubTodoApi } from "./promise/ClubTodoApi.ts"

// ---- Effect face
export { bearerInterceptor } from "./todo/bearerInterceptor.ts"
export { makeTodoClient, type NewTask, type TodoClient, type TodoTask } from "./todo/TodoClient.ts"
export { makeTodoTransport, type TodoTransportOptions } from "./todo/makeTodoTransport.ts"
export type { TodoProtocol } from "./todo/TodoProtocol.ts"
export { TodoRpcError } from "./todo/TodoRpcError.ts"
export { type RetryPolicy, retryPolicy } from "./shared/retryDelay.ts"

// ---- Shared
export * from "./shared/common.ts"
