/** The few API calls the bench makes itself, to set up callers. */

const call = async (url: string, init: RequestInit & { readonly token?: string }): Promise<unknown> => {
  const response = await fetch(url, {
    ...init,
    headers: {
      "content-type": "application/json",
      ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` })
    },
    signal: AbortSignal.timeout(30_000)
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${text}`)
  return text.length === 0 ? undefined : JSON.parse(text)
}

export const login = async (baseUrl: string, credentials: { readonly name: string; readonly password: string }) =>
  ((await call(`${baseUrl}/auth/login`, { method: "POST", body: JSON.stringify(credentials) })) as { token: string })
    .token

export const createUser = (
  baseUrl: string,
  token: string,
  user: { readonly name: string; readonly password: string; readonly role: string; readonly coachId?: number }
) => call(`${baseUrl}/users/create`, { method: "POST", token, body: JSON.stringify({ email: null, ...user }) })

export const get = (url: string, token: string) => call(url, { method: "GET", token })
