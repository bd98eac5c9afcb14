import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiScalar } from "effect/http-api"
import { createHash } from "node:crypto"
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
/** Scalar's page is built once, so is its policy: the body is the same object on every answer. */
const policies = new WeakMap<object, string>()

const withPolicy = (response: HttpServerResponse.HttpServerResponse) => {
  const body = response.body
  if (body._tag !== "Uint8Array") return response
  let policy = policies.get(body.body)
  if (policy === undefined) {
    policy = policyFor(decoder.decode(body.body))
    policies.set(body.body, policy)
  }
  return HttpServerResponse.setHeader(response, "content-security-policy", policy)
}

/** `GET /docs`: the interactive API reference (Scalar), under a Content-Security-Policy of its own. */
// Scalar would fetch its fonts from its own site, which the policy forbids: the page uses the system fonts.
export const DocsPageLive = HttpApiScalar.layer(ClubApi, { path: "/docs", scalar: { withDefaultFonts: false } }).pipe(
  Layer.provide(HttpRouter.middleware((httpEffect) => Effect.map(httpEffect, withPolicy)).layer)
)
