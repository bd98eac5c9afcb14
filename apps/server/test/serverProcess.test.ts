import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { spawnServer, waitUntilLive } from "@club/test-support"

/**
 * The harness every server test starts through. `freePort` releases the port it found, so another
 * process may listen on it before the spawned server does; the server then cannot listen and stops,
 * while that other process answers `/health/live`.
 */
describe("the test harness's servers", { timeout: 120_000 }, () => {
  it("a server whose port another process took is never taken for live, even when that process answers 200", async () => {
    const other = createServer((_request, response) => response.writeHead(200).end("{}"))
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve))
    const { port } = other.address() as AddressInfo
    try {
      const server = await spawnServer({ DATA_DIR: "memory://", PORT: String(port), ADMIN_PASSWORD: "harness-pw-0" })
      try {
        await expect(waitUntilLive(server)).rejects.toThrow(/exited before it was live/u)
        expect(await server.exited).toMatchObject({ code: 1 })
      } finally {
        await server.stop()
      }
    } finally {
      await new Promise((resolve) => other.close(resolve))
    }
  })
})
