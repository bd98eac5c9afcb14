import type { NodeRequest, NodeResponse } from "./NodeHandler.ts"

/**
 * The request metrics (`metrics/`): `scrape` answers a scrape of `/metrics` on this port (true) or
 * leaves the request alone (false); `observe` is given every other request the listener serves,
 * once, before anything answers it, and reads its answer when the exchange closes.
 */
export interface RequestMetrics {
  readonly scrape: (request: NodeRequest, response: NodeResponse) => boolean
  readonly observe: (request: NodeRequest, response: NodeResponse) => void
}

/** METRICS=off, or a listener without metrics: nothing is measured and no scrape is answered. */
export const unmeasured: RequestMetrics = { scrape: () => false, observe: () => undefined }
