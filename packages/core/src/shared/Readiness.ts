import { Context, type Effect } from "effect"

/**
 * Whether the service can serve requests now (in the server, whether its database answers). Every
 * protocol that reports readiness asks this same check: REST's `/health/ready`, gRPC's
 * `grpc.health.v1.Health`. `check` never fails: a failure to tell is `false`.
 */
export class Readiness extends Context.Service<Readiness, {
  readonly check: Effect.Effect<boolean>
}>()("@club/core/Readiness") {}
