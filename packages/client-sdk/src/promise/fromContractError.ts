import type { Schema } from "effect"
import type { HttpClientError } from "effect/http"
import { TOKEN_EXPIRED_MESSAGE } from "../AccessToken.ts"
import type { RestError } from "../rest/RestError.ts"
import { ClubApiError } from "./ClubApiError.ts"

type ContractError = Exclude<RestError, HttpClientError.HttpClientError | Schema.SchemaError>
type Problem = Extract<ContractError, { readonly status: number }>
type SeedFailure = Exclude<ContractError, Problem>

/** The seed's own failure bodies (plain text, empty, a 204) carry no status, so it is kept here. */
const seedFailures: Record<SeedFailure["_tag"], { readonly status: number; readonly message: string }> = {
  ActivityFailed: { status: 500, message: "The activity operation failed" },
  SessionCreateFailed: { status: 400, message: "The session could not be created" },
  SessionNotFoundText: { status: 404, message: "Session not found" },
  NotFoundEmpty: { status: 404, message: "Not found" },
  AthleteUpdateFailed: { status: 204, message: "The athlete update failed: the athlete or a session was not found" }
}

const isProblem = (error: ContractError): error is Problem => "status" in error && typeof error.status === "number"

const fromProblem = (problem: Problem): ClubApiError => {
  const message = problem.detail ?? problem.title
  return problem._tag === "Unauthorized" && /expired/i.test(message)
    ? new ClubApiError({ tag: "TokenExpired", status: 401, message: TOKEN_EXPIRED_MESSAGE, cause: problem })
    : new ClubApiError({ tag: problem._tag, status: problem.status, message, cause: problem })
}

const fromSeedFailure = (failure: SeedFailure): ClubApiError => {
  const known = seedFailures[failure._tag]
  const message = "message" in failure && failure.message !== "" ? failure.message : known.message
  return new ClubApiError({ tag: failure._tag, status: known.status, message, cause: failure })
}

/** An error the contract declares, with its HTTP status and the server's message. */
export const fromContractError = (error: ContractError): ClubApiError =>
  isProblem(error) ? fromProblem(error) : fromSeedFailure(error)
