export { actorKey } from "./actorKey.ts"
export { makeAuthInterceptor } from "./authInterceptor.ts"
export { bearerToken } from "./bearerToken.ts"
export { categoryToCode } from "./categoryToCode.ts"
export { type Call, type EdgeRunner, makeEdgeRunner, rpcSpanKey } from "./EdgeRunner.ts"
export { makeTodoConnect, type TodoConnect } from "./TodoConnect.ts"
export { defaultMaxWatches, defaultWatchIntervalMs, GrpcHealth, type GrpcHealthOptions } from "./grpcHealth.ts"
export { makeReflection, reflectionServices } from "./grpcReflection.ts"
export {
  makeTodoNodeHandler,
  makeTodoNodeHandlerFactory,
  type TodoNodeHandler,
  servedServicePaths,
  servedServices,
  type TodoNodeHandlerOptions,
  todoServicePathPrefix
} from "./todoNodeHandler.ts"
export { makeTodoRoutes } from "./todoRoutes.ts"
export { todoOperations } from "./todoOperations.ts"
