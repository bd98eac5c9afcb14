import { expect, it } from "vitest"
import { independentInstant } from "./repositoryContract/zoneProperties.ts"

// The repository contract's own copy of test-support's independent reading (test-support's
// test/zonedInstants.test.ts holds its property): a time in a gap is read to the second.
it("reads a time in a gap with the offset in force before it, to the second", () => {
  expect(independentInstant("Europe/Paris", "2027-03-28T02:15:00")).toBe(Date.parse("2027-03-28T01:15:00Z"))
  expect(independentInstant("Australia/Lord_Howe", "2027-10-03T02:15:00")).toBe(Date.parse("2027-10-02T15:45:00Z"))
})
