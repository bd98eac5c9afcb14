import { ClubApiError } from "@club/client-sdk"
import { expect } from "vitest"

/** The `ClubApiError` a call rejects with; fails the test when the call succeeds. */
export const failure = (call: Promise<unknown>): Promise<ClubApiError> =>
  call.then(
    (value) => expect.fail(`expected a failure, got ${JSON.stringify(value)}`),
    (error: unknown) => {
      expect(error).toBeInstanceOf(ClubApiError)
      return error as ClubApiError
    }
  )
