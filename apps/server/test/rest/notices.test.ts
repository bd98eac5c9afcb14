import { HmacUnsubscribeSeal } from "@club/crypto-adapter"
import type { NoticeKind, UserId } from "@club/core"
import { createUser, missingId } from "@club/test-support/rest"
import { expectProblem } from "@club/test-support/expectations"
import { describe, expect, it } from "vitest"
import { jwtSecret, onEveryDatabase, type Role } from "./support/club.ts"

/** The server's own seal: it derives the unsubscribe key from the JWT_SECRET the suite gives it. */
const seal = HmacUnsubscribeSeal.make(Buffer.from(jwtSecret, "utf8"))
const foreignSeal = HmacUnsubscribeSeal.make(Buffer.from("another secret, of at least thirty-two bytes", "utf8"))

const link = (userId: number, kind: NoticeKind) =>
  `/notices/unsubscribe?token=${seal.sign({ userId: userId as UserId, kind })}`

const oneClick = {
  body: "List-Unsubscribe=One-Click",
  headers: { "content-type": "application/x-www-form-urlencoded" }
}

await onEveryDatabase("Issue 42's notice preferences and one-click unsubscribe", (club) => {
  const mine = (role: Role) => club().as(role).get("/notices/preferences")

  describe("preferences", () => {
    it("a user who never chose has the defaults", async () => {
      const reply = await mine("ATHLETE")
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body).toEqual({
        userId: club().user.ATHLETE.id,
        language: null,
        emailEnabled: true,
        mutedKinds: []
      })
    })

    it("PUT replaces the caller's choice, which GET then answers; a key replays the first answer", async () => {
      const choice = { language: "en", emailEnabled: true, mutedKinds: ["reminder", "invitation"] }
      const headers = { "idempotency-key": `prefs-${Date.now()}` }
      const set = await club().athlete.put("/notices/preferences", choice, { headers })
      expect(set.status, set.text).toBe(200)
      expect(set.body).toEqual({ userId: club().user.ATHLETE.id, ...choice })
      expect((await mine("ATHLETE")).body).toEqual({ userId: club().user.ATHLETE.id, ...choice })
      const replayed = await club().athlete.put("/notices/preferences", choice, { headers })
      expect(replayed.status).toBe(200)
      expect(replayed.headers.get("idempotent-replayed")).toBe("true")
      // Another user's stays as it was.
      expect((await mine("COACH")).body).toMatchObject({ language: null, mutedKinds: [] })
    })

    it("refuses an unknown kind, an unknown language, a kind twice and a missing member, naming the field", async () => {
      const valid = { language: "fr", emailEnabled: false, mutedKinds: [] }
      const before = (await mine("COACH")).body
      expectProblem(
        await club().coach.put("/notices/preferences", { ...valid, mutedKinds: ["promoted", "gossip"] }),
        400,
        { detail: /mutedKinds/u }
      )
      expectProblem(await club().coach.put("/notices/preferences", { ...valid, language: "de" }), 400, {
        detail: /language/u
      })
      expectProblem(
        await club().coach.put("/notices/preferences", { ...valid, mutedKinds: ["reminder", "reminder"] }),
        400,
        { detail: /mutedKinds/u }
      )
      expectProblem(await club().coach.put("/notices/preferences", { language: "fr", mutedKinds: [] }), 400, {
        detail: /emailEnabled/u
      })
      expectProblem(await club().coach.put("/notices/preferences", { ...valid, extra: 1 }), 400, { detail: /extra/u })
      expect((await mine("COACH")).body).toEqual(before)
    })

    it("a user reads and sets its own through /users/{id}; another user's: 403; an admin any user's", async () => {
      const athlete = club().user.ATHLETE.id
      const coach = club().user.COACH.id
      const own = await club().coach.get(`/notices/preferences/${coach}`)
      expect(own.status, own.text).toBe(200)
      expectProblem(await club().athlete.get(`/notices/preferences/${coach}`), 403)
      expectProblem(
        await club().athlete.put(`/notices/preferences/${coach}`, {
          language: "en",
          emailEnabled: false,
          mutedKinds: []
        }),
        403
      )
      expect((await mine("COACH")).body).toEqual(own.body)

      const choice = { language: null, emailEnabled: false, mutedKinds: ["promoted"] }
      const set = await club().admin.put(`/notices/preferences/${athlete}`, choice)
      expect(set.status, set.text).toBe(200)
      expect((await mine("ATHLETE")).body).toEqual({ userId: athlete, ...choice })
      expect((await club().admin.get(`/notices/preferences/${athlete}`)).body).toEqual(set.body)
      expectProblem(await club().admin.get(`/notices/preferences/${missingId}`), 404)
    })
  })

  describe("one-click unsubscribe (RFC 8058)", () => {
    it("GET shows a page whose button POSTs the one-click body, and mutes nothing", async () => {
      const user = await createUser(club(), { role: "ATHLETE" })
      const path = link(user.id, "sessionCancelled")
      const page = await club().anonymous.get(path)
      expect(page.status, page.text).toBe(200)
      expect(page.contentType).toBe("text/html")
      expect(page.text).toMatch(/<form method="post" action="unsubscribe\?token=[A-Za-z0-9_-]+">/u)
      expect(page.text).toContain(`name="List-Unsubscribe" value="One-Click"`)
      expect(page.headers.get("referrer-policy")).toBe("no-referrer")
      await club().anonymous.get(path)
      const preferences = await club().admin.get(`/notices/preferences/${user.id}`)
      expect(preferences.body).toMatchObject({ emailEnabled: true, mutedKinds: [] })
    })

    it("POST without a login mutes the link's kind at once, keeps the rest, and is idempotent", async () => {
      const user = await createUser(club(), { role: "COACH" })
      const choice = { language: "en", emailEnabled: true, mutedKinds: ["reminder"] }
      expect((await club().admin.put(`/notices/preferences/${user.id}`, choice)).status).toBe(200)
      const path = link(user.id, "sessionCancelled")
      for (let i = 0; i < 2; i++) {
        const reply = await club().anonymous.send("POST", path, oneClick)
        expect(reply.status, reply.text).toBe(200)
        expect(reply.contentType).toBe("text/html")
        const preferences = await club().admin.get(`/notices/preferences/${user.id}`)
        expect(preferences.body).toEqual({
          userId: user.id,
          language: "en",
          emailEnabled: true,
          mutedKinds: ["reminder", "sessionCancelled"]
        })
      }
    })

    it("a forged, altered or foreign token, or one for a deleted user: 404 saying no more; nothing muted", async () => {
      const user = await createUser(club(), { role: "COACH" })
      const token = seal.sign({ userId: user.id as UserId, kind: "promoted" })
      const altered = `${token.slice(0, 5)}${token[5] === "A" ? "B" : "A"}${token.slice(6)}`
      const gone = await createUser(club(), { role: "COACH" })
      const goneToken = seal.sign({ userId: gone.id as UserId, kind: "promoted" })
      expect((await club().admin.delete(`/users/delete/${gone.id}`)).status).toBeLessThan(300)
      const refused = [
        altered,
        foreignSeal.sign({ userId: user.id as UserId, kind: "promoted" }),
        seal.sign({ userId: missingId as UserId, kind: "promoted" }),
        goneToken,
        "forged-token"
      ]
      for (const candidate of refused) {
        for (const method of ["GET", "POST"]) {
          const path = `/notices/unsubscribe?token=${candidate}`
          const reply = await club().anonymous.send(method, path, method === "POST" ? oneClick : {})
          expectProblem(reply, 404, "No such unsubscribe link")
        }
      }
      const preferences = await club().admin.get(`/notices/preferences/${user.id}`)
      expect(preferences.body).toMatchObject({ mutedKinds: [] })
    })

    it("a token too long or not base64url, no token, or another body: 400, nothing muted", async () => {
      const user = await createUser(club(), { role: "COACH" })
      const path = link(user.id, "reminder")
      expectProblem(await club().anonymous.send("POST", `/notices/unsubscribe?token=${"A".repeat(129)}`, oneClick), 400)
      expectProblem(await club().anonymous.send("POST", "/notices/unsubscribe?token=a.b", oneClick), 400)
      expectProblem(await club().anonymous.send("POST", "/notices/unsubscribe", oneClick), 400)
      expectProblem(
        await club().anonymous.send("POST", path, { ...oneClick, body: "List-Unsubscribe=Two-Clicks" }),
        400
      )
      expect((await club().anonymous.send("POST", path, { json: { "List-Unsubscribe": "One-Click" } })).status)
        .toBeGreaterThanOrEqual(400)
      const preferences = await club().admin.get(`/notices/preferences/${user.id}`)
      expect(preferences.body).toMatchObject({ mutedKinds: [] })
    })
  })
})
