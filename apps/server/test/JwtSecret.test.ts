import { afterAll, assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { appConfig, type AppConfigShape } from "../src/AppConfig.ts"
import { loadJwtSecret, secretFileName } from "../src/auth/JwtSecret.ts"

/** The configuration of an environment that sets only DATA_DIR=memory://, with `overrides`. */
const config = (overrides: Partial<AppConfigShape>): AppConfigShape => ({
  ...Effect.runSync(appConfig.parse(ConfigProvider.fromUnknown({ DATA_DIR: "memory://" }))),
  ...overrides
})

const dirs: Array<string> = []
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))
const freshDir = Effect.promise(async () => {
  const dir = await mkdtemp(join(tmpdir(), "club-secret-"))
  dirs.push(dir)
  return dir
})

describe("the token secret", () => {
  it.effect("is JWT_SECRET when set, whatever DATA_DIR holds", () =>
    Effect.gen(function*() {
      const dataDir = yield* freshDir
      const secret = yield* loadJwtSecret(config({ dataDir, jwtSecret: Option.some(Redacted.make("s".repeat(40))) }))
      assert.strictEqual(Buffer.from(secret).toString(), "s".repeat(40))
    }))

  it.effect("is generated once into DATA_DIR/jwt-secret (mode 0600) and read back after that", () =>
    Effect.gen(function*() {
      const dataDir = join(yield* freshDir, "not-yet-there")
      const first = yield* loadJwtSecret(config({ dataDir }))
      const second = yield* loadJwtSecret(config({ dataDir }))
      assert.strictEqual(first.length, 32)
      assert.deepStrictEqual(second, first)
      const path = join(dataDir, secretFileName)
      assert.strictEqual((yield* Effect.promise(() => stat(path))).mode & 0o777, 0o600)
      const stored = yield* Effect.promise(() => readFile(path, "utf8"))
      assert.deepStrictEqual(Buffer.from(stored.trim(), "base64url"), Buffer.from(first))
    }))

  it.effect("is the same for processes that start together on an empty DATA_DIR", () =>
    Effect.gen(function*() {
      const dataDir = yield* freshDir
      const secrets = yield* Effect.all(Array.from({ length: 8 }, () => loadJwtSecret(config({ dataDir }))), {
        concurrency: "unbounded"
      })
      for (const secret of secrets) assert.deepStrictEqual(secret, secrets[0])
    }))

  it.effect("is random per process with DATA_DIR=memory://", () =>
    Effect.gen(function*() {
      const first = yield* loadJwtSecret(config({}))
      const second = yield* loadJwtSecret(config({}))
      assert.strictEqual(first.length, 32)
      assert.notDeepEqual(first, second)
    }))

  it.effect("refuses to start on a secret file that holds too little", () =>
    Effect.gen(function*() {
      const dataDir = yield* freshDir
      yield* Effect.promise(() => writeFile(join(dataDir, secretFileName), "short\n"))
      const error = yield* Effect.flip(loadJwtSecret(config({ dataDir })))
      assert.strictEqual(error._tag, "JwtSecretError")
    }))
})
