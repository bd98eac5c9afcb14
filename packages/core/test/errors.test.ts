import { describe, expect, it } from "@effect/vitest"
import {
  categoryOf,
  CoachStillOwnsSessions,
  type DomainError,
  EntityNotFound,
  type ErrorCategory,
  NotPermitted,
  IdAlreadyInUse,
  InvalidValue,
  LastAdminUser,
  RateLimited,
  RecordAlreadyLinked,
  Unauthenticated,
  UnknownReferences,
  UserNameTaken
} from "../src/index.ts"

const cases: ReadonlyArray<readonly [DomainError, ErrorCategory, string]> = [
  [new EntityNotFound({ entity: "Session", id: 7 }), "NotFound", "Session not found with id 7"],
  [
    new UnknownReferences({ field: "athleteIds", entity: "Athlete", ids: [4, 5] }),
    "Invalid",
    "athleteIds: no athlete with id 4, 5"
  ],
  [new InvalidValue({ field: "coachId", reason: "bad" }), "Invalid", "coachId: bad"],
  [new IdAlreadyInUse({ entity: "Coach", id: 3 }), "Conflict", "Coach id 3 is already in use"],
  [new CoachStillOwnsSessions({ coachId: 7, sessionCount: 3 }), "Conflict", "Coach 7 still owns 3 sessions"],
  [new UserNameTaken({ name: "ana" }), "Conflict", "User name 'ana' is already taken"],
  [new LastAdminUser({ userId: 3 }), "Conflict", "User 3 is the last ADMIN user; another ADMIN user must exist first"],
  [new RecordAlreadyLinked({ entity: "Athlete", id: 2 }), "Conflict", "Athlete 2 is already linked to another user"],
  [new NotPermitted({ operation: "coach.delete" }), "Forbidden", "Your role may not coach.delete"],
  [new Unauthenticated({ reason: "expired" }), "Unauthenticated", "The token has expired"],
  [new RateLimited({ retryAfterSeconds: 30 }), "RateLimited", "Too many failed attempts; retry in 30 seconds"]
]

describe("domain errors", () => {
  for (const [error, category, message] of cases) {
    it(`${error._tag} is ${category}`, () => {
      expect(categoryOf(error)).toBe(category)
      expect(error.message).toBe(message)
    })
  }

  it("one credentials message whatever was wrong", () => {
    expect(new Unauthenticated({ reason: "credentials" }).message).toBe("Invalid name or password")
  })

  it("a coach with one session is told so in the singular", () => {
    expect(new CoachStillOwnsSessions({ coachId: 1, sessionCount: 1 }).message).toBe("Coach 1 still owns 1 session")
  })
})
