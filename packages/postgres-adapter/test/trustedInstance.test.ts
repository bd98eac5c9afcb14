import { Session, type SessionId, Task, type TaskId } from "@club/core"
import { describe, expect, it } from "@effect/vitest"
import { Equal, Hash, Schema } from "effect"
import { trustedInstance } from "../src/rows/trustedInstance.ts"

const task = {
  id: "0b0f1f6e-8a55-4a53-9a4e-1f1f1f1f1f1f" as TaskId,
  title: "Wax skis",
  description: "",
  createdAt: new Date(0)
}
const session = {
  id: 7 as SessionId,
  name: "Track",
  isRecurrent: true,
  creneau: null,
  duree: 60,
  groupe: null,
  coachId: null,
  athleteIds: [],
  activiteIds: []
}

describe("a domain instance built from trusted row fields", () => {
  for (const [name, Class, fields] of [["Task", Task, task], ["Session", Session, session]] as const) {
    it(`is a ${name} like the one its constructor builds`, () => {
      const constructed = new (Class as new(f: unknown) => object)(fields)
      const trusted = trustedInstance(Class as new(f: unknown) => object, fields)
      expect(trusted).toBeInstanceOf(Class)
      expect(Schema.is(Class as never)(trusted)).toBe(true)
      expect(Reflect.ownKeys(trusted)).toEqual(Reflect.ownKeys(constructed))
      expect(Equal.equals(trusted, constructed)).toBe(true)
      expect(Hash.hash(trusted)).toBe(Hash.hash(constructed))
      expect(JSON.stringify(trusted)).toBe(JSON.stringify(constructed))
      expect(String(trusted)).toBe(String(constructed))
    })
  }
})
