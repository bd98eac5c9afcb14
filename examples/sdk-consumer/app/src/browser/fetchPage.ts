import { ClubApiError, ClubRestClient, coachId } from "@club/client-sdk/fetch"

/** The REST page again with the light client (`@club/client-sdk/fetch`): the same calls, no Effect runtime. */
const run = async (baseUrl: string, password: string) => {
  try {
    const admin = await ClubRestClient.login({ baseUrl, name: "admin", password, timeoutMs: 5_000 })
    await admin.coaches.create({ payload: { name: "From the light client" } })
    const coaches = await admin.coaches.all()
    const missing = await admin.coaches.get({ params: { id: coachId(999_999) } }).then(
      () => undefined,
      (error: unknown) => error
    )
    const requestId = missing instanceof ClubApiError && missing.tag === "NotFound" ? missing.requestId : undefined
    return {
      ok: true,
      user: admin.user?.name,
      coaches: coaches.map((coach) => coach.name),
      requestIdReadable: typeof requestId === "string" && requestId.length > 0
    }
  } catch (error) {
    return { ok: false, tag: error instanceof ClubApiError ? error.tag : "thrown", message: String(error) }
  }
}

Object.assign(globalThis, { clubFetch: run })
