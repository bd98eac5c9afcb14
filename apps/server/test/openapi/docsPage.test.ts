import { chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServerProcess, startServer } from "@club/test-support"

/** Debian's Chromium (`apt-get install chromium`, as CI installs it); CHROMIUM_PATH names another. */
const chromiumPath = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium"

/*
 * The `/docs` page as a browser shows it (issue 40): its code samples send the bearer token the
 * API asks for, `Authorization: Bearer …`, never a user name and password (`Basic`), which is what
 * the page's client wrote while the security scheme was spelled `"Bearer"`.
 */
describe("the /docs page in Chromium", { timeout: 180_000 }, () => {
  let server: ServerProcess
  beforeAll(async () => {
    server = await startServer({ DATA_DIR: "memory://", ADMIN_PASSWORD: "docs-page-admin-0", LOG_LEVEL: "warn" })
  }, 120_000)
  afterAll(() => server?.stop())

  it("shows an authenticated operation's curl sample with Authorization: Bearer, and none with Basic", async () => {
    const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--disable-gpu"] })
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
      const failed: Array<string> = []
      page.on("requestfailed", (request) => failed.push(request.url()))
      await page.goto(`http://127.0.0.1:${server.port}/docs`)
      await page.getByRole("button", { name: "Open Group Sessions" }).click()
      const samples = page.locator("pre, code").filter({ hasText: "/session/create" })
      await samples.first().waitFor()
      const texts = (await page.locator("pre, code").allTextContents()).filter((text) => text.includes("curl"))
      const create = texts.find((text) => text.includes("/session/create"))
      expect(create).toContain("--header 'Authorization: Bearer ")
      expect(texts.join("\n")).not.toMatch(/Authorization: Basic|--user /u)
      // Everything the page needs comes from the server itself: nothing it asked for failed.
      expect(failed).toEqual([])
    } finally {
      await browser.close()
    }
  })
})
