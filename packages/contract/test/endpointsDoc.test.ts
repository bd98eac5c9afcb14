import { describe, expect, it } from "vitest"
// @ts-expect-error -- a plain script of the package, without declarations
import { committedEndpointsDoc, endpointsDoc } from "../scripts/endpoints-doc.mjs"

describe("docs/ENDPOINTS.md", () => {
  it("is what the contract's OpenAPI document gives today (`pnpm --filter @club/contract docs:endpoints`)", () => {
    expect((committedEndpointsDoc as () => string)()).toBe((endpointsDoc as () => string)())
  })

  it("has a row for each endpoint, with who may call it", () => {
    const document = (endpointsDoc as () => string)()
    expect(document).toContain(
      "| POST | `/planning/sessions` | Create a session, refusing double bookings | the COACH of the session"
    )
    expect(document).toContain("| POST | `/auth/login` | Log in | anyone; no token is needed |")
    expect(document).toContain("| POST | `/attendance/webhooks` | Register a webhook | ADMIN |")
  })
})
