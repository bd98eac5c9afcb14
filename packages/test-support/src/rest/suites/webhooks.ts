import { describe, expect, it } from "vitest"
import { expectJson, expectProblem, expectStatus } from "../../expectations.ts"
import type { Club } from "../Club.ts"
import { missingId } from "../records.ts"

/** Issue 18's webhook registration, log and replay under `/attendance/webhooks` (ADMIN), on any harness. */
export const webhookEndpoints = (club: () => Club) => {
  describe("POST, GET and DELETE /attendance/webhooks (Admin)", () => {
    it("registers a webhook (its secret never answered), lists it, and removes it", async () => {
      const created = await club().admin.post("/attendance/webhooks", {
        url: "https://receiver.example.org/hook",
        secret: "a-secret-of-enough-length"
      })
      expectStatus(created, 201)
      const webhook = created.body as { id: number; url: string }
      expect(webhook).toEqual({ id: webhook.id, url: "https://receiver.example.org/hook" })
      expect(created.text).not.toContain("a-secret-of-enough-length")
      const listed = (await club().admin.get("/attendance/webhooks")).body as ReadonlyArray<{ id: number }>
      expect(listed).toContainEqual(webhook)
      expectJson(await club().admin.get(`/attendance/webhooks/${webhook.id}/deliveries`), 200, [])
      expectJson(await club().admin.post(`/attendance/webhooks/${webhook.id}/replay`), 200, { replayed: 0 })
      expectStatus(await club().admin.delete(`/attendance/webhooks/${webhook.id}`), 204)
      expectProblem(
        await club().admin.delete(`/attendance/webhooks/${webhook.id}`),
        404,
        `Webhook not found with id ${webhook.id}`
      )
    })

    it("answers 400 naming the field for a URL that is not http(s) or a short secret", async () => {
      expectProblem(
        await club().admin.post("/attendance/webhooks", { url: "ftp://x.test/", secret: "a-secret-of-enough-length" }),
        400,
        /url/u
      )
      expectProblem(
        await club().admin.post("/attendance/webhooks", { url: "https://x.test/", secret: "short" }),
        400,
        /secret/u
      )
    })

    it("answers 404 for the log or a replay of no webhook, and 403 to a coach or an athlete", async () => {
      expectProblem(await club().admin.get(`/attendance/webhooks/${missingId}/deliveries`), 404)
      expectProblem(await club().admin.post(`/attendance/webhooks/${missingId}/replay?fromEventId=1`), 404)
      expectProblem(await club().coach.get("/attendance/webhooks"), 403, "Your role may not webhook.manage")
      expectProblem(
        await club().athlete.post("/attendance/webhooks", {
          url: "https://x.test/",
          secret: "a-secret-of-enough-length"
        }),
        403
      )
    })
  })
}
