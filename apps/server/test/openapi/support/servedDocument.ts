import { startServer, type ServerProcess } from "@club/test-support"

export const adminPassword = "openapi-admin-password-0"

/** A server of its own on the embedded database, in memory, with a known admin. */
export const startDocumentedServer = (): Promise<ServerProcess> =>
  startServer({
    DATA_DIR: "memory://",
    ADMIN_NAME: "admin",
    ADMIN_PASSWORD: adminPassword,
    JWT_SECRET: "openapi-suite-secret-openapi-suite-secret-0123",
    LOG_LEVEL: "warn"
  })

export type Document = {
  readonly openapi: string
  readonly info: Record<string, unknown>
  readonly servers?: ReadonlyArray<{ readonly url: string }>
  readonly tags: ReadonlyArray<{ readonly name: string; readonly description?: string }>
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: {
    readonly schemas: Record<string, Schema>
    readonly securitySchemes: Record<string, Record<string, unknown>>
  }
}

// oxlint-disable-next-line no-explicit-any -- a JSON Schema as parsed from the document, read freely by the checks
export type Schema = Record<string, any>

export interface Operation {
  readonly operationId: string
  readonly summary?: string
  readonly description?: string
  readonly tags: ReadonlyArray<string>
  readonly security: ReadonlyArray<Record<string, ReadonlyArray<string>>>
  readonly parameters: ReadonlyArray<
    { readonly name: string; readonly in: string; readonly required: boolean; readonly schema: Schema }
  >
  readonly requestBody?: { readonly content: Record<string, { readonly schema: Schema }> }
  readonly responses: Record<
    string,
    {
      readonly description: string
      readonly content?: Record<string, { readonly schema: Schema }>
      readonly headers?: Record<string, unknown>
    }
  >
}

/** `/openapi.json` as the server serves it. */
export const fetchDocument = async (
  server: ServerProcess
): Promise<{ readonly text: string; readonly document: Document }> => {
  const response = await fetch(`http://127.0.0.1:${server.port}/openapi.json`)
  if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}`)
  const text = await response.text()
  return { text, document: JSON.parse(text) as Document }
}

/** Every operation of the document, with its method and path. */
export const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation }))
  )

/** A schema, with a `$ref` to a component followed. */
export const resolve = (document: Document, schema: Schema): Schema => {
  const ref = schema["$ref"]
  return typeof ref === "string" ? resolve(document, document.components.schemas[ref.split("/").at(-1)!]!) : schema
}
