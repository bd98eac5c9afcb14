import type * as Http from "node:http"
import type * as Http2 from "node:http2"

export type NodeRequest = Http.IncomingMessage | Http2.Http2ServerRequest
export type NodeResponse = Http.ServerResponse | Http2.Http2ServerResponse
/** A node `request` listener that accepts both HTTP/1.1 and HTTP/2 compatibility objects. */
export type NodeRequestHandler = (request: NodeRequest, response: NodeResponse) => void
