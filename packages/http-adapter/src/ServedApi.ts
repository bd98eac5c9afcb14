import { HttpApi } from "effect/http-api"
import { ClubApi } from "@club/contract/rest"

/**
 * The contract as this server serves it: answers are encoded without running their schemas'
 * checks again. Every answer is built from core's records, whose checks ran when the record was
 * made (a decoded request, or a row of our own tables, which only such records wrote); a second
 * pass over every field of every entry of a listing was most of the server's cost per entry
 * (README, Performance). Clients of the same contract (the SDK) still check what they decode.
 */
export const ServedApi = ClubApi.annotate(HttpApi.SuccessParseOptions, { disableChecks: true })
