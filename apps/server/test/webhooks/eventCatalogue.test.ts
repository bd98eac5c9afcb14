import { readFileSync } from "node:fs"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { DeliveredEvent, EventType } from "@club/core"

/** The types the catalogue's table lists, in its order: the first cell of each row under "Event types". */
const catalogued = () => {
  const text = readFileSync(new URL("../../../../docs/events.md", import.meta.url), "utf8")
  const section = text.split("## Event types")[1]!.split("\n### ")[0]!
  // The first row is the table's header (`type`).
  return [...section.matchAll(/^\| `(\w+)` \|/gmu)].map((match) => match[1]!).slice(1)
}

const typesOf = (schema: typeof DeliveredEvent) =>
  schema.members.map((member) => (member.fields.type as unknown as { literal: string }).literal)

describe("The event catalogue (docs/events.md)", () => {
  it("lists exactly the types core writes, each with a payload Schema", () => {
    const written = [...EventType.literals].sort()
    expect(catalogued().sort()).toEqual(written)
    expect(typesOf(DeliveredEvent).sort()).toEqual(written)
  })

  it("decodes a body of each stream, and refuses one naming the wrong stream", () => {
    const decode = Schema.decodeUnknownSync(DeliveredEvent)
    expect(
      decode({
        id: 3,
        type: "presence",
        sessionId: 7,
        occurredAt: "2026-11-24T19:02:11.517Z",
        data: { athleteId: 2, status: "late", previousStatus: null }
      }).type
    ).toBe("presence")
    expect(
      decode({
        id: 4,
        type: "membershipEnded",
        groupId: 1,
        occurredAt: "2026-11-24T19:02:11.517Z",
        data: { membershipId: 5, athleteId: 2, from: "2026-09-01", until: "2026-12-31" }
      }).type
    ).toBe("membershipEnded")
    expect(() =>
      decode({
        id: 4,
        type: "membershipEnded",
        sessionId: 1,
        occurredAt: "2026-11-24T19:02:11.517Z",
        data: { membershipId: 5, athleteId: 2, from: "2026-09-01", until: null }
      })
    ).toThrow()
  })
})
