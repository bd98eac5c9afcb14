import { ClubApiError, ClubRestClient, coachId } from "@club/client-sdk/rest"

/** A page of the club's web app: it logs in and lists the coaches, with the REST entry point alone. */
const run = async (baseUrl: string, password: string) => {
  try {
    const admin = await ClubRestClient.login({ baseUrl, name: "admin", password, timeoutMs: 5_000 })
    await admin.coaches.create({ payload: { name: "From the browser" } })
    const coaches = await admin.coaches.all()
    // A failure's request id is in a header the page may read only when the server exposes it.
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

Object.assign(globalThis, { clubRest: run })
