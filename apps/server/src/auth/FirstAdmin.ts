import type { FirstAdminOutcome } from "@club/core"
import { Console, Effect, Layer, Option, Redacted, References } from "effect"
import { randomBytes } from "node:crypto"
import { AppConfig } from "../AppConfig.ts"

/**
 * Creates the first ADMIN user when no ADMIN exists, and says what it did.
 * Core's `UserService.ensureFirstAdmin` has this shape.
 */
export type EnsureFirstAdmin<E = never, R = never> = (
  name: string,
  password: Redacted.Redacted<string>
) => Effect.Effect<FirstAdminOutcome, E, R>

/** 24 characters of base64url: 144 random bits. */
export const generatePassword: Effect.Effect<Redacted.Redacted<string>> = Effect.sync(() =>
  Redacted.make(randomBytes(18).toString("base64url"))
)

/**
 * What an operator reads on the terminal after the first start: the only place a generated
 * password is ever written, on a line of its own (`  password: ...`).
 */
export const generatedPasswordNotice = (adminName: string, password: Redacted.Redacted<string>): string =>
  [
    "",
    "================================================================",
    `  First admin created: ${adminName}`,
    `  password: ${Redacted.value(password)}`,
    "  Shown only this once. Sign in and change it, or set",
    "  ADMIN_PASSWORD before the first start.",
    "================================================================",
    ""
  ].join("\n")

/**
 * ADMIN_NAME and ADMIN_PASSWORD from the configuration; without ADMIN_PASSWORD a password is
 * generated, and printed once on standard error (never in the JSON log) if the admin was created
 * with it. When no ADMIN user exists and the name belongs to a user of another role, nothing is
 * created: the server serves on, and says in one ERROR line what is wrong and how to recover.
 */
export const ensureFirstAdmin = <E, R>(ensure: EnsureFirstAdmin<E, R>): Effect.Effect<void, E, R | AppConfig> =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const generated = Option.isNone(config.adminPassword)
    const password = Option.isSome(config.adminPassword) ? config.adminPassword.value : yield* generatePassword
    const outcome = yield* ensure(config.adminName, password)
    switch (outcome._tag) {
      case "AdminExists":
        return
      case "NameTaken":
        return yield* Effect.logError(
          `No ADMIN user exists, and ADMIN_NAME '${config.adminName}' is taken by a user of role ${outcome.role}, ` +
            `so no admin was created and no user was promoted. To recover, start the server with ADMIN_NAME set to ` +
            `a name no user has: a new ADMIN user of that name is then created, with ADMIN_PASSWORD as its password ` +
            `or, when ADMIN_PASSWORD is unset, a generated password printed once on standard error.`
        ).pipe(Effect.annotateLogs({ event: "no-admin-user", adminName: config.adminName, takenByRole: outcome.role }))
      case "Created":
        if (!generated) {
          return yield* Effect.logInfo(`Created the first admin '${config.adminName}' with ADMIN_PASSWORD`).pipe(
            Effect.annotateLogs({ event: "first-admin-created", adminName: config.adminName })
          )
        }
        // The password goes to standard error as plain text, on lines of their own that stand out
        // in a terminal, apart from the JSON log lines that are parsed and shipped.
        yield* Console.error(generatedPasswordNotice(config.adminName, password))
        return yield* Effect.logWarning(
          `Created the first admin '${config.adminName}' with a generated password, printed once on standard error ` +
            `(not in this log); sign in and change it, or set ADMIN_PASSWORD before the first start`
        ).pipe(
          Effect.annotateLogs({ event: "first-admin-created", adminName: config.adminName }),
          // Shown whatever LOG_LEVEL says: the operator must learn that a password was printed.
          Effect.provideService(References.MinimumLogLevel, "All")
        )
    }
  })

/** Runs at start-up, after the database layer (and so its migrations) is ready. */
export const layer = <E, R>(ensure: EnsureFirstAdmin<E, R>): Layer.Layer<never, E, R | AppConfig> =>
  Layer.effectDiscard(ensureFirstAdmin(ensure))
