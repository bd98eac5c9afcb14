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

    it("refuses with 400 naming url every address a webhook may not reach, in every spelling (SSRF)", async () => {
      const refused = [
        "http://127.0.0.1/",
        "http://127.0.0.1:5432/",
        "http://[::1]/",
        "http://localhost/",
        "http://0.0.0.0/",
        "http://[::]/",
        "http://0x7f000001/",
        "http://2130706433/",
        "http://127.1/",
        "http://0177.0.0.1/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/",
        "http://[::127.0.0.1]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/",
        "http://172.16.0.1/",
        "http://192.168.1.1/",
        "http://100.64.0.1/",
        "http://[fd00::1]/",
        "http://[fe80::1]/",
        "http://224.0.0.1/",
        "http://255.255.255.255/"
      ]
      for (const url of refused) {
        const answer = await club().admin.post("/attendance/webhooks", { url, secret: "a-secret-of-enough-length" })
        expect([url, answer.status]).toEqual([url, 400])
        expectProblem(answer, 400, /^url: /u)
      }
      const listed = (await club().admin.get("/attendance/webhooks")).body as ReadonlyArray<{ url: string }>
      expect(listed.filter((w) => refused.includes(w.url))).toEqual([])
      const publicAddress = await club().admin.post("/attendance/webhooks", {
        url: "https://93.184.215.14/hook",
        secret: "a-secret-of-enough-length"
      })
      expectStatus(publicAddress, 201)
      expectStatus(await club().admin.delete(`/attendance/webhooks/${(publicAddress.body as { id: number }).id}`), 204)
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
