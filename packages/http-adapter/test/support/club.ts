import { type Club as SharedClub, setUpClub } from "@club/test-support/rest"
import { afterAll, beforeAll } from "vitest"
import { type InProcessAppOptions, makeInProcessApp, type RequestOptions } from "./InProcessApp.ts"

export type { Role } from "@club/test-support/rest"

/** The club of `@club/test-support/rest`, its callers able to send what only an in-process request can. */
export type Club = SharedClub<RequestOptions>

/** Builds the club through the API itself, as a client would. */
export const startClub = async (options: InProcessAppOptions = {}) => {
  const app = makeInProcessApp(options)
  const club: Club = await setUpClub<RequestOptions>(app.send)
  return { club, dispose: app.dispose }
}

/** A club for the tests of the file (one app, built before the first test and disposed after the last). */
export const clubForFile = (options: InProcessAppOptions = {}): () => Club => {
  let started: Awaited<ReturnType<typeof startClub>> | undefined
  beforeAll(async () => {
    started = await startClub(options)
  })
  afterAll(() => started?.dispose())
  return () => {
    if (started === undefined) throw new Error("The club is built before the first test")
    return started.club
  }
}
