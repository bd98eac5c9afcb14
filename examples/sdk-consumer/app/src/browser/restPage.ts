import { ClubApiError, ClubRestClient } from "@club/client-sdk/rest"

/** A page of the club's web app: it logs in and lists the coaches, with the REST entry point alone. */
const run = async (baseUrl: string, password: string) => {
  try {
    const admin = await ClubRestClient.login({ baseUrl, name: "admin", password, timeoutMs: 5_000 })
    await admin.coaches.create({ payload: { name: "From the browser" } })
    const coaches = await admin.coaches.all()
    return { ok: true, user: admin.user?.name, coaches: coaches.map((coach) => coach.name) }
  } catch (error) {
    return { ok: false, tag: error instanceof ClubApiError ? error.tag : "thrown", message: String(error) }
  }
}

Object.assign(globalThis, { clubRest: run })
