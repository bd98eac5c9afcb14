import { startServer } from "@club/test-support"

export const adminPassword = "admin-password-for-tests"

/** A bearer token for the first admin, over plain HTTP. */
export const loginAsAdmin = async (port: number): Promise<string> => {
  const response = await fetch(`http://127.0.0.1:${port}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "admin", password: adminPassword })
  })
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { token: string }).token
}

/** The built server with the first admin of `adminPassword` and `env` on top, and that admin's token. */
export const startWithAdmin = async (env: Record<string, string>) => {
  const server = await startServer({ ADMIN_NAME: "admin", ADMIN_PASSWORD: adminPassword, LOG_LEVEL: "warn", ...env })
  return { server, token: await loginAsAdmin(server.port) }
}
