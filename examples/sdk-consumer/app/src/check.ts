import assert from "node:assert/strict"
import { ClubApiError } from "@club/client-sdk"

export const results: Array<{ readonly name: string; readonly ok: boolean; readonly error?: string }> = []

/** Runs one step of the app; a failure is recorded with its message and the run goes on. */
export const step = async (name: string, body: () => Promise<void>): Promise<void> => {
  try {
    await body()
    results.push({ name, ok: true })
  } catch (error) {
    results.push({
      name,
      ok: false,
      error: error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error)
    })
  }
}

/** The `ClubApiError` a call rejects with, checked against the fields given. */
export const failure = async (
  call: Promise<unknown>,
  expected: Partial<Record<keyof ClubApiError, unknown>>
): Promise<ClubApiError> => {
  const error = await call.then(
    (value) => assert.fail(`expected a failure, got ${JSON.stringify(value)}`),
    (error: unknown) => error
  )
  assert.ok(error instanceof ClubApiError, `expected a ClubApiError, got ${String(error)}`)
  for (const [key, value] of Object.entries(expected)) {
    assert.deepEqual(error[key as keyof ClubApiError], value, `${key} of ${error.message}`)
  }
  return error
}

export { assert }

/** Prints the run's summary as the last line (the test reads it) and sets the exit code. */
export const report = () => {
  console.log(
    JSON.stringify({
      passed: results.filter((one) => one.ok).length,
      failed: results.filter((one) => !one.ok),
      steps: results.map((one) => one.name)
    })
  )
  process.exitCode = results.every((one) => one.ok) ? 0 : 1
}
