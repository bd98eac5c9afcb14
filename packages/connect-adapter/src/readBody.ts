import type { IncomingMessage } from "node:http"

/** The whole body of a request that announced its length; rejects when the client goes away first. */
export const readBody = (request: IncomingMessage, length: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)))
    request.once("error", reject)
    request.once("aborted", () => reject(new Error("the client went away")))
  })
