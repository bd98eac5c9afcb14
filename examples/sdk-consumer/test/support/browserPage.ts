import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { chromium } from "playwright-core"

/** Debian's Chromium (`apt-get install chromium`); CHROMIUM_PATH names another. */
export const chromiumPath = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium"

export interface PageSite {
  /** The page's origin, which is not the server's: another port is another origin. */
  readonly origin: string
  readonly close: () => Promise<void>
}

/** Serves the bundled pages as a web app's own host would: an HTML page and its scripts, nothing else. */
export const servePages = async (scripts: ReadonlyArray<string>): Promise<PageSite> => {
  const files = new Map(scripts.map((file) => [`/${file.split("/").at(-1)}`, file]))
  const html = `<!doctype html><meta charset="utf-8"><title>Club</title>${
    [...files.keys()].map((path) => `<script type="module" src="${path}"></script>`).join("")
  }`
  const server = createServer((request, response) => {
    const file = files.get(request.url ?? "")
    if (request.url === "/") response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html)
    else if (file !== undefined) response.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(file))
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/**
 * Opens the site's page in headless Chromium, waits for its scripts, and runs one of the
 * functions they put on `globalThis` with the arguments given; its result, and what the browser's
 * console said (a CORS refusal is reported there).
 */
export const runInBrowser = async (
  origin: string,
  calls: ReadonlyArray<{ readonly fn: string; readonly args: ReadonlyArray<string> }>
) => {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ]
  })
  try {
    const page = await browser.newPage()
    const console: Array<string> = []
    page.on("console", (message) => console.push(message.text()))
    await page.goto(`${origin}/`)
    const results: Array<unknown> = []
    for (const { args, fn } of calls) {
      await page.waitForFunction((name) => typeof (globalThis as Record<string, unknown>)[name] === "function", fn)
      results.push(
        await page.evaluate(
          ([name, values]) =>
            ((globalThis as unknown as Record<string, (...args: Array<string>) => Promise<unknown>>)[name]!)(...values),
          [fn, [...args]] as const
        )
      )
    }
    return { results, console }
  } finally {
    await browser.close()
  }
}
