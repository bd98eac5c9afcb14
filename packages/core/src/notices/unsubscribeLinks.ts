import { Effect } from "effect"
import { type UnsubscribeTarget, UnsubscribeSeal } from "./UnsubscribeSeal.ts"

/** The path of the one-click unsubscribe link, below the service's public base URL. */
export const unsubscribePath = "/notices/unsubscribe"

/**
 * The link for a token: `<base>/notices/unsubscribe?token=<token>`. The base is the service's public
 * URL (`PUBLIC_URL`), with or without a trailing slash.
 */
export const unsubscribeUrl = (baseUrl: string, token: string): string =>
  `${baseUrl.replace(/\/+$/u, "")}${unsubscribePath}?token=${encodeURIComponent(token)}`

/** The signed link that mutes `kind` for `userId`: what a notice of that kind carries. */
export const unsubscribeLink = (baseUrl: string, target: UnsubscribeTarget) =>
  Effect.map(Effect.service(UnsubscribeSeal), (seal) => unsubscribeUrl(baseUrl, seal.sign(target)))

/**
 * The headers of RFC 8058 one-click unsubscribe: a mail client shows an "unsubscribe" button and
 * POSTs `List-Unsubscribe=One-Click` to the link, with no login.
 */
export const unsubscribeHeaders = (link: string): {
  readonly "List-Unsubscribe": string
  readonly "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"
} => ({ "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" })
