import { Data, Effect, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { ownerOnlyFolder } from "@club/postgres-adapter"
import { link, readFile, unlink, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { type AppConfigShape, isInMemory, minJwtSecretBytes } from "../AppConfig.ts"

export const secretFileName = "jwt-secret"
const secretBytes = minJwtSecretBytes

export class JwtSecretError extends Data.TaggedError("JwtSecretError")<{
  readonly path: string
  readonly cause: unknown
}> {
  override get message() {
    return `Cannot read or create the token secret ${this.path}`
  }
}

const readSecret = (path: string) =>
  Effect.tryPromise({
    try: async () => {
      const secret = Buffer.from((await readFile(path, "utf8")).trim(), "base64url")
      if (secret.length < secretBytes) throw new Error(`${path} holds fewer than ${secretBytes} bytes`)
      return secret
    },
    catch: (cause) => new JwtSecretError({ path, cause })
  })

/**
 * Creates the file only if it does not exist, and never half-written: the secret goes to a
 * private temporary file that is then hard-linked into place, which fails when another
 * process got there first; that process's secret is then read and used.
 */
const createSecret = (dataDir: string, path: string) =>
  Effect.tryPromise({
    try: async () => {
      await ownerOnlyFolder(dataDir)
      const secret = randomBytes(secretBytes)
      const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`
      await writeFile(temporary, `${secret.toString("base64url")}\n`, { mode: 0o600, flag: "wx" })
      try {
        await link(temporary, path)
        return Option.some(secret)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return Option.none<Buffer>()
        throw error
      } finally {
        await unlink(temporary).catch(() => undefined)
      }
    },
    catch: (cause) => new JwtSecretError({ path, cause })
  })

const fromDataDir = (dataDir: string) => {
  const path = join(dataDir, secretFileName)
  return readSecret(path).pipe(
    Effect.catchIf(
      (error) => (error.cause as NodeJS.ErrnoException | undefined)?.code === "ENOENT",
      () =>
        createSecret(dataDir, path).pipe(
          Effect.flatMap(Option.match({ onNone: () => readSecret(path), onSome: Effect.succeed })),
          Effect.tap(() => Effect.logInfo("Generated a new token secret").pipe(Effect.annotateLogs({ path })))
        )
    )
  )
}

/**
 * JWT_SECRET when set; otherwise a secret kept in DATA_DIR so that tokens survive a restart;
 * with `DATA_DIR=memory://`, a secret for this process only.
 */
export const loadJwtSecret = (config: AppConfigShape): Effect.Effect<Uint8Array, JwtSecretError> =>
  Option.match(config.jwtSecret, {
    // Its length was checked with the rest of the configuration (AppConfig).
    onSome: (secret) => Effect.succeed(Buffer.from(Redacted.value(secret), "utf8")),
    onNone: () =>
      Effect.gen(function*() {
        if (Option.isSome(config.databaseUrl)) {
          // Each instance would otherwise sign with its own secret and refuse the others' tokens.
          yield* Effect.logWarning(
            "JWT_SECRET is unset: tokens are valid on this instance only; set it when running several"
          )
        }
        if (isInMemory(config.dataDir)) return randomBytes(secretBytes)
        return yield* fromDataDir(config.dataDir)
      })
  })
