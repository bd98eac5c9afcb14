import { expect } from "vitest"
import type { Club } from "./Club.ts"

const secretKeys = new Set(["password", "motdepasse", "passwordhash", "password_hash", "hash"])

const keysOf = (value: unknown): Array<string> =>
  Array.isArray(value)
    ? value.flatMap(keysOf)
    : typeof value === "object" && value !== null
    ? Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])
    : []

/**
 * CONTRACT.md: no endpoint ever returns a password or its hash. Checks every answer the club was
 * given: no password it sent, no scrypt/argon2 hash, no password-like key in any JSON body.
 */
export const expectNoSecretInAnyReply = (club: Club) => {
  expect(club.replies.length).toBeGreaterThan(0)
  for (const reply of club.replies) {
    const where = `${reply.method} ${reply.path} (${reply.status})`
    expect(reply.text, where).not.toMatch(/scrypt\$|\$argon2/u)
    for (const password of club.passwords) {
      expect(reply.text.includes(password), `${where} contains a password`).toBe(false)
    }
    for (const key of keysOf(reply.body)) {
      expect(secretKeys.has(key.toLowerCase()), `${where} has a key ${key}`).toBe(false)
    }
  }
}
