import { describe, expect, it } from "vitest"
import { clubForFile } from "../support/club.ts"
import { contractEndpoints } from "../support/contractEndpoints.ts"

const club = clubForFile()

/** `/session/:id` as OpenAPI writes it: `/session/{id}`. */
const openApiPath = (template: string) => template.replace(/:(\w+)/gu, "{$1}")

describe("the documents served beside the API", () => {
  it("GET /openapi.json answers the OpenAPI 3.1 document, with every endpoint of the contract, no token needed", async () => {
    const reply = await club().anonymous.get("/openapi.json")
    expect(reply.status).toBe(200)
    expect(reply.contentType).toBe("application/json")
    const document = reply.body as { openapi: string; paths: Record<string, Record<string, unknown>> }
    expect(document.openapi).toMatch(/^3\.1\./u)
    for (const endpoint of contractEndpoints()) {
      expect(document.paths[openApiPath(endpoint.path)], endpoint.name).toHaveProperty(endpoint.method.toLowerCase())
    }
  })

  it("GET /docs answers the interactive reference as HTML, no token needed", async () => {
    const reply = await club().anonymous.get("/docs")
    expect(reply.status).toBe(200)
    expect(reply.contentType).toBe("text/html")
    expect(reply.text).toContain("/openapi.json")
  })
})
