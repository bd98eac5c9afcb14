import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { tag } from "../shared/endpointParts.ts"
import { HealthDto } from "../shared/Dto.ts"
import { Unavailable } from "../shared/Problems.ts"
import { operation } from "../shared/operation.ts"

export class HealthGroup extends HttpApiGroup.make("health").add(
  HttpApiEndpoint.get("live", "/health/live", { success: HealthDto })
    .annotateMerge(
      operation(
        "Liveness",
        "Answers `{\"status\":\"ok\"}` while the process serves requests, whether or not its database answers."
      )
    ),
  HttpApiEndpoint.get("ready", "/health/ready", { success: HealthDto, error: Unavailable })
    .annotateMerge(
      operation(
        "Readiness",
        "Answers `{\"status\":\"ready\"}` when the service can serve requests, 503 while its database is unreachable."
      )
    )
).annotateMerge(
  tag("Health", "Liveness and readiness probes, for load balancers and orchestrators. No token needed.")
) {}
