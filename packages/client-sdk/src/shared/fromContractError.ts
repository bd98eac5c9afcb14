import type { Schema } from "effect"
import type { HttpClientError } from "effect/http"
import type { RestError } from "../rest/RestError.ts"
import { TOKEN_EXPIRED_MESSAGE } from "./AccessToken.ts"
import type { SeenAnswer } from "./CallSettings.ts"
import { ClubApiError } from "./ClubApiError.ts"

type ContractError = Exclude<RestError, HttpClientError.HttpClientError | Schema.SchemaError>
type ProblemError = Extract<ContractError, { readonly status: number }>
type SeedFailure = Exclude<ContractError, ProblemError>

/** The seed's own failure bodies (plain text, empty, a 204) carry no status, so it is kept here. */
const seedFailures: Record<SeedFailure["_tag"], { readonly status: number; readonly message: string }> = {
  ActivityFailed: { status: 500, message: "The activity operation failed" },
  SessionCreateFailed: { status: 400, message: "The session could not be created" },
  SessionNotFoundText: { status: 404, message: "Session not found" },
  NotFoundEmpty: { status: 404, message: "Not found" },
  AthleteUpdateFailed: { status: 204, message: "The athlete update failed: the athlete or a session was not found" }
}

const isProblem = (error: ContractError): error is ProblemError => "status" in error && typeof error.status === "number"

const secondsOf = (ms: number | undefined) => (ms === undefined ? undefined : Math.ceil(ms / 1000))

const fromProblem = (problem: ProblemError, seen: SeenAnswer): ClubApiError => {
  const message = problem.detail ?? problem.title
  const common = {
    status: problem.status,
    retryAfter: "retryAfter" in problem ? problem.retryAfter : secondsOf(seen.retryAfterMs),
    problem: {
      type: problem.type,
      title: problem.title,
      status: problem.status,
      detail: problem.detail,
      instance: problem.instance,
      errors: "errors" in problem ? problem.errors : undefined
    },
    requestId: seen.requestId,
    cause: problem
  }
  return problem._tag === "Unauthorized" && /expired/i.test(message)
    ? new ClubApiError({ ...common, tag: "TokenExpired", message: TOKEN_EXPIRED_MESSAGE })
    : new ClubApiError({ ...common, tag: problem._tag, message })
}

const fromSeedFailure = (failure: SeedFailure, seen: SeenAnswer): ClubApiError => {
  const known = seedFailures[failure._tag]
  const message = "message" in failure && failure.message !== "" ? failure.message : known.message
  return new ClubApiError({
    tag: failure._tag,
    status: known.status,
    message,
    requestId: seen.requestId,
    cause: failure
  })
}

/** An error the contract declares, with its HTTP status, the server's message and what the answer said besides. */
export const fromContractError = (error: ContractError, seen: SeenAnswer): ClubApiError =>
  isProblem(error) ? fromProblem(error, seen) : fromSeedFailure(error, seen)
