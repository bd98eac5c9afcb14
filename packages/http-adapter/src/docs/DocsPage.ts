import { Effect, Layer, Stream } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiScalar } from "effect/http-api"
import { createHash } from "node:crypto"
import { promisify } from "node:util"
import * as zlib from "node:zlib"
import { ClubApi } from "@club/contract/rest"

/** The inline scripts of a page, each as a CSP source expression (`'sha256-…'`). */
const scriptHashes = (html: string): Array<string> =>
  Array.from(
    html.matchAll(/<script(?:\s[^>]*)?>([\s\S]*?)<\/script>/gu),
    ([, body]) => `'sha256-${createHash("sha256").update(body ?? "", "utf8").digest("base64")}'`
  )

/**
 * The page may run exactly its own inline scripts (Scalar and its start-up call, recognised by their
 * hashes) and talk only to this server; nothing may frame it, and it loads nothing from elsewhere.
 * Scalar adds its styles at run time, hence inline styles.
 */
const policyFor = (html: string): string =>
  [
    "default-src 'none'",
    `script-src ${scriptHashes(html).join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

const decoder = new TextDecoder()

/** One page as it is answered: its policy and ETag, and its bytes plain, gzipped and in Brotli. */
interface PreparedPage {
  readonly policy: string
  readonly etag: string
  readonly identity: Uint8Array
  readonly gzip: Uint8Array
  readonly br: Uint8Array
}

const gzip = promisify(zlib.gzip)
const brotli = promisify(zlib.brotliCompress)

/**
 * Scalar's page is built once (the body is the same object on every answer), so it is prepared
 * once (issue 37): compressed off the event loop, in the thread pool, and shared by the requests
 * that come meanwhile.
 */
const prepared = new WeakMap<object, Promise<PreparedPage>>()

const prepare = (body: Uint8Array): Promise<PreparedPage> => {
  let page = prepared.get(body)
  if (page === undefined) {
    page = Promise.all([
      gzip(body, { level: 9 }),
      brotli(body, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length }
      })
    ]).then(([gzipped, brotlied]) => ({
      policy: policyFor(decoder.decode(body)),
      etag: `"${createHash("sha256").update(body).digest("base64url")}"`,
      identity: body,
      gzip: new Uint8Array(gzipped),
      br: new Uint8Array(brotlied)
    }))
    prepared.set(body, page)
  }
  return page
}

/** The bytes of one write of the page; 20 answers each write at most one slice per turn of the event loop. */
const sliceBytes = 64 * 1024

/**
 * The page's bytes a slice at a time, yielding to the event loop between slices (issue 37): a
 * socket on loopback takes a whole page in one write, and twenty answers written at once held the
 * event loop for the copy of them all (tens of milliseconds, in `writev`).
 */
const inSlices = (bytes: Uint8Array): Stream.Stream<Uint8Array> =>
  Stream.unfold(0, (offset) =>
    offset >= bytes.length
      ? Effect.succeed(undefined)
      : Effect.as(
        offset === 0 ? Effect.void : Effect.yieldNow,
        [bytes.subarray(offset, offset + sliceBytes), offset + sliceBytes] as const
      ))

/** The codings `Accept-Encoding` accepts (any q above 0), of those the page is kept in. */
const acceptedCodings = (header: string | undefined): Set<string> => {
  const accepted = new Set<string>()
  for (const part of (header ?? "").split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";")
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue
    if (coding !== undefined && coding.length > 0) accepted.add(coding)
  }
  return accepted
}

/** Whether `If-None-Match` names `etag` (weak comparison), or is `*`. */
const matches = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined &&
  ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || tag.trim().replace(/^W\//u, "") === etag)

/**
 * The page answered compressed when the client takes it (Brotli, else gzip), with its ETag and a
 * 304 to a client that holds it; public and cacheable, since it holds nothing of anyone's (it is
 * answered without a token). `Vary: Accept-Encoding` keeps a shared cache from mixing codings.
 */
const served = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) => {
  const body = response.body
  if (body._tag !== "Uint8Array" || response.status !== 200) return Effect.succeed(response)
  return Effect.map(Effect.promise(() => prepare(body.body)), (page) => {
    const headers = {
      "cache-control": "public, max-age=300",
      etag: page.etag,
      vary: "accept-encoding",
      "content-security-policy": page.policy
    }
    if (matches(request.headers["if-none-match"], page.etag)) {
      return HttpServerResponse.empty({ status: 304, headers })
    }
    const accepted = acceptedCodings(request.headers["accept-encoding"])
    const coding = accepted.has("br") ? "br" : accepted.has("gzip") ? "gzip" : undefined
    const bytes = coding === undefined ? page.identity : page[coding]
    return HttpServerResponse.stream(inSlices(bytes), {
      status: 200,
      contentType: body.contentType,
      contentLength: bytes.length,
      headers: coding === undefined ? headers : { ...headers, "content-encoding": coding }
    })
  })
}

/** `GET /docs`: the interactive API reference (Scalar), under a Content-Security-Policy of its own. */
// Scalar would fetch its fonts from its own site, which the policy forbids: the page uses the system fonts.
export const DocsPageLive = HttpApiScalar.layer(ClubApi, { path: "/docs", scalar: { withDefaultFonts: false } }).pipe(
  Layer.provide(
    HttpRouter.middleware((httpEffect) =>
      Effect.flatMap(
        Effect.all([httpEffect, HttpServerRequest.HttpServerRequest]),
        ([response, request]) => served(request, response)
      )
    ).layer
  )
)
