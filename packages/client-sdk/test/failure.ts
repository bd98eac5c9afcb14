import { expect } from "vitest"
import { ClubApiError } from "../src/index.ts"

/** The ClubApiError a call of the Promise face rejects with; a call that succeeds fails the test. */
export const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected a failure"),
    (error: unknown) => {
      expect(error).toBeInstanceOf(ClubApiError)
      return error as ClubApiError
    }
  )
