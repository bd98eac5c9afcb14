import { type AddressInfo, createServer } from "node:net"

/**
 * A loopback port nothing listens on right now: the system picks it, and it is released at once
 * for the caller to take (a process started with `PORT=<it>`, which cannot be asked for its own).
 */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
