import { describe, expect, it } from "vitest"
import { pagesTouched } from "../src/queries/pagesTouched.ts"
import { isPlanStable, planVerdict } from "../src/queries/planStability.ts"
import { type PlanNode, rowsFetched } from "../src/queries/rowsFetched.ts"
import { statementSummary } from "../src/queries/statementSummary.ts"

/** The two plans of an athlete's sessions in a range on the skewed data set, as EXPLAIN reports them. */
const customPlan: PlanNode = {
  "Node Type": "Sort",
  "Actual Rows": 23,
  "Actual Loops": 1,
  Plans: [{
    "Node Type": "Hash Join",
    "Actual Rows": 23,
    "Actual Loops": 1,
    Plans: [
      { "Node Type": "Seq Scan", "Actual Rows": 471, "Actual Loops": 1, "Rows Removed by Filter": 529 },
      {
        "Node Type": "Hash",
        "Actual Rows": 50,
        "Actual Loops": 1,
        Plans: [{
          "Node Type": "Bitmap Heap Scan",
          "Actual Rows": 50,
          "Actual Loops": 1,
          Plans: [{ "Node Type": "Bitmap Index Scan", "Actual Rows": 50, "Actual Loops": 1 }]
        }]
      }
    ]
  }]
}

const genericPlan: PlanNode = {
  "Node Type": "Sort",
  "Actual Rows": 23,
  "Actual Loops": 1,
  Plans: [{
    "Node Type": "Nested Loop",
    "Actual Rows": 23,
    "Actual Loops": 1,
    Plans: [
      { "Node Type": "Index Scan", "Actual Rows": 471, "Actual Loops": 1 },
      { "Node Type": "Index Only Scan", "Actual Rows": 0, "Actual Loops": 471 }
    ]
  }]
}

describe("rows fetched", () => {
  it("adds the rows each table scan returned and removed, times its loops, and nothing else", () => {
    // 471 + 529 from the sessions, 50 from the memberships; the bitmap index scan is not counted twice.
    expect(rowsFetched(customPlan)).toBe(1_050)
    expect(rowsFetched(genericPlan)).toBe(471)
    expect(rowsFetched({
      "Node Type": "Nested Loop",
      "Actual Rows": 30,
      "Actual Loops": 1,
      Plans: [
        { "Node Type": "Seq Scan", "Actual Rows": 3, "Actual Loops": 1 },
        { "Node Type": "Index Scan", "Actual Rows": 10, "Actual Loops": 3, "Rows Removed by Filter": 2 }
      ]
    })).toBe(3 + (10 + 2) * 3)
  })

  it("counts a node that never ran as nothing", () => {
    expect(rowsFetched({ "Node Type": "Seq Scan", "Actual Rows": 0, "Actual Loops": 0, "Rows Removed by Filter": 0 }))
      .toBe(0)
  })

  it("misses index probes that find nothing, which the pages touched show", () => {
    expect(pagesTouched({ "Shared Hit Blocks": 940, "Shared Read Blocks": 10 })).toBe(950)
    expect(pagesTouched({})).toBe(0)
    const custom = { rows: rowsFetched(customPlan), pages: 53 }
    const generic = { rows: rowsFetched(genericPlan), pages: 950 }
    expect(isPlanStable(custom, generic)).toBe(false)
  })
})

describe("plan stability", () => {
  it("passes a generic plan within twice the custom plan's cost plus ten, in rows and in pages", () => {
    expect(isPlanStable({ rows: 100, pages: 5 }, { rows: 210, pages: 20 })).toBe(true)
    expect(isPlanStable({ rows: 1, pages: 1 }, { rows: 3, pages: 2 })).toBe(true)
    expect(isPlanStable({ rows: 100, pages: 5 }, { rows: 211, pages: 5 })).toBe(false)
    expect(isPlanStable({ rows: 100, pages: 5 }, { rows: 100, pages: 21 })).toBe(false)
  })

  it("fails a prepared statement whose generic plan is bad, and only flags one sent unprepared", () => {
    const custom = { rows: 1_050, pages: 53 }
    const generic = { rows: 471, pages: 950 }
    expect(planVerdict("named", custom, generic)).toBe("FAIL")
    expect(planVerdict("unnamed", custom, generic)).toBe("flagged")
    expect(planVerdict("simple", custom, generic)).toBe("flagged")
    expect(planVerdict("named", custom, custom)).toBe("pass")
  })
})

describe("statement summary", () => {
  it("leaves out the select list, up to the FROM outside parentheses", () => {
    expect(statementSummary(`SELECT s.id, ARRAY(SELECT sa.athlete_id FROM session_athletes sa) AS "a"
      FROM "sessions" s WHERE s.id = $1`)).toBe(`SELECT … FROM "sessions" s WHERE s.id = $1`)
    expect(statementSummary("SELECT 1")).toBe("SELECT 1")
    expect(statementSummary("SELECT a FROM t WHERE x = 1", 20)).toBe("SELECT … FROM t WHE…")
  })
})
