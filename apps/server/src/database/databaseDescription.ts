import { Option, Redacted } from "effect"
import { type AppConfigShape, isInMemory } from "../AppConfig.ts"

/** Which database the server uses, for the start-up log: never the URL's user or password. */
export const describeDatabase = (config: AppConfigShape): string =>
  Option.match(config.databaseUrl, {
    onNone: () =>
      isInMemory(config.dataDir)
        ? "embedded PostgreSQL in memory"
        : `embedded PostgreSQL at ${config.dataDir}`,
    onSome: (url) => {
      try {
        const parsed = new URL(Redacted.value(url))
        return `PostgreSQL server at ${parsed.host}${parsed.pathname}`
      } catch {
        return "PostgreSQL server"
      }
    }
  })
