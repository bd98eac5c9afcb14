import type { Http2ServerResponse } from "node:http2"
import type { ServerResponse } from "node:http"

/**
 * Headers every answer carries, whatever serves it (REST, Connect, gRPC, the docs), set before the
 * handler runs so that one may still override them: no content sniffing, and nothing stored by a
 * browser or a shared cache, since answers carry tokens and personal data. An answer meant to be
 * cached (a calendar feed, for instance) says so itself.
 */
export const setSecurityHeaders = (response: ServerResponse | Http2ServerResponse): void => {
  response.setHeader("x-content-type-options", "nosniff")
  response.setHeader("cache-control", "no-store")
}
