import { startServer } from "@club/test-support"
import { describe, expect, it } from "vitest"
import { adminPassword, loginAsAdmin } from "../connect/support/login.ts"
import { startOtlpReceiver } from "../support/otlpReceiver.ts"

/**
 * Issue 37: a feed URL carries its token, a bearer secret. With every request logged (debug) and
 * every span exported, neither the log nor a span keeps it.
 */
describe("Feed tokens are in no log line and no span", { timeout: 400_000 }, () => {
  it("LOG_LEVEL=debug and OTLP on: a feed's requests leave its path with `{token}` in place of the token", async () => {
    const receiver = await startOtlpReceiver()
    try {
      const server = await startServer({
        DATA_DIR: "memory://",
        ADMIN_NAME: "admin",
        ADMIN_PASSWORD: adminPassword,
        LOG_LEVEL: "debug",
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url
      })
      const baseUrl = `http://127.0.0.1:${server.port}`
      const token = await loginAsAdmin(server.port)
      const issued = await fetch(`${baseUrl}/planning/feed-token`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` }
      })
      expect(issued.status).toBe(200)
      const feed = (await issued.json()) as { token: string; groupPattern: string }
      const answered = await fetch(`${baseUrl}${feed.groupPattern.replace("{groupe}", "juniors")}?x=1`)
      expect(answered.status).toBe(200)
      expect((await fetch(`${baseUrl}/planning/feeds/${feed.token}/athlete/0.ics`)).status).toBeGreaterThanOrEqual(400)
      expect((await server.stop()).code).toBe(0)

      const output = server.output.join("\n")
      expect(output).toContain("/planning/feeds/{token}/group/juniors.ics")
      expect(output).not.toContain(feed.token)
      const spans = JSON.stringify(receiver.spans)
      expect(receiver.spans.some((span) => span.attributes["url.path"] === "/planning/feeds/{token}/group/juniors.ics"))
        .toBe(true)
      expect(spans).not.toContain(feed.token)
    } finally {
      await receiver.close()
    }
  })
})
