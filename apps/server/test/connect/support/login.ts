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
