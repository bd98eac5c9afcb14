import { resolve } from "node:path"
import { Option } from "effect"
import { type AppConfigShape, isInMemory } from "../AppConfig.ts"

/** A host a browser on this machine can open: the wildcard addresses are reached through loopback. */
const reachableHost = (host: string): string => {
  if (host === "0.0.0.0" || host === "::" || host === "") return "localhost"
  return host.includes(":") ? `[${host}]` : host
}

/**
 * What an operator reads on the terminal once the server is ready: where to call it, its reference
 * and document, its metrics and where its data lives. Standard error, apart from the JSON log.
 */
export const readyNotice = (config: AppConfigShape, port: number): string => {
  const base = `http://${reachableHost(config.host)}:${port}`
  const metrics = !config.metrics.enabled
    ? "off (METRICS=off)"
    : config.metrics.port === undefined
    ? `${base}/metrics`
    : `http://${reachableHost(config.metrics.host)}:${config.metrics.port}/metrics`
  const data = Option.isSome(config.databaseUrl)
    ? "the PostgreSQL server of DATABASE_URL"
    : isInMemory(config.dataDir)
    ? "in memory only (DATA_DIR=memory://): gone when the server stops"
    : `embedded PostgreSQL in ${resolve(config.dataDir)}`
  return [
    "",
    "Club Training Service is ready",
    `  API:            ${base}/`,
    `  API reference:  ${base}/docs`,
    `  OpenAPI:        ${base}/openapi.json`,
    `  Health:         ${base}/health/ready`,
    `  Metrics:        ${metrics}`,
    `  Data:           ${data}`,
    ""
  ].join("\n")
}
