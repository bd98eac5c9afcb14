import type { AuthService, TaskService } from "@club/core"
import type { ConnectRouter, Interceptor } from "@connectrpc/connect"
import { Effect } from "effect"
import { makeAuthInterceptor } from "../auth/authInterceptor.ts"
import { type EdgeRunner, makeEdgeRunner } from "../shared/EdgeRunner.ts"
import { makeTodoRoutes } from "./todoRoutes.ts"

/** TodoService for any Connect adapter: the routes, and the interceptors they rely on (auth). */
export interface TodoConnect {
  /** TodoService, with its interceptors on the service itself: other services on the router are not authenticated. */
  readonly routes: (router: ConnectRouter) => void
  /** The interceptors `routes` applies (authentication); a router given them too runs them once. */
  readonly interceptors: Array<Interceptor>
  /** The runner the routes and the interceptors use, for routes of one's own on the same services. */
  readonly run: EdgeRunner<TaskService | AuthService>
}

/** Captures the application's services once; every call then runs with them. */
export const makeTodoConnect: Effect.Effect<TodoConnect, never, TaskService | AuthService> = Effect.gen(function*() {
  const run = makeEdgeRunner(yield* Effect.context<TaskService | AuthService>())
  const interceptors = [makeAuthInterceptor(run)]
  return { routes: makeTodoRoutes(run, interceptors), interceptors, run }
})
