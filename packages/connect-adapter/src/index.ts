export { actorKey } from "./auth/actorKey.ts"
export { makeAuthInterceptor } from "./auth/authInterceptor.ts"
export { bearerToken } from "./auth/bearerToken.ts"
export { categoryToCode } from "./shared/categoryToCode.ts"
export { type Call, type EdgeRunner, makeEdgeRunner, rpcSpanKey } from "./shared/EdgeRunner.ts"
export { makeTodoConnect, type TodoConnect } from "./todo/TodoConnect.ts"
export { defaultMaxWatches, defaultWatchIntervalMs, GrpcHealth, type GrpcHealthOptions } from "./health/grpcHealth.ts"
export { makeReflection, reflectionServices } from "./reflection/grpcReflection.ts"
export {
  makeTodoNodeHandler,
  makeTodoNodeHandlerFactory,
  type TodoNodeHandler,
  servedServicePaths,
  servedServices,
  type TodoNodeHandlerOptions,
  todoServicePathPrefix
} from "./todoNodeHandler.ts"
export { makeTodoRoutes } from "./todo/todoRoutes.ts"
export { todoOperations } from "./todo/todoOperations.ts"
