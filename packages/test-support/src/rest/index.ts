/**
 * `@club/test-support/rest`: the REST API's behaviour, written once and run on every harness that
 * serves it (http-adapter's app in process, the built server over the wire): the club both give
 * (`Club`), the records the tests create through the API, and a suite per group of the seed's
 * endpoints. It imports vitest, and no workspace package: only HTTP.
 */
export * from "./Club.ts"
export * from "./records.ts"
export * from "./secrets.ts"
export * from "./suites/activities.ts"
export * from "./suites/athletes.ts"
export * from "./suites/authentication.ts"
export * from "./suites/badInput.ts"
export * from "./suites/coaches.ts"
export * from "./suites/feeds.ts"
export * from "./suites/guardians.ts"
export * from "./suites/idempotency.ts"
export * from "./suites/planning.ts"
export * from "./suites/roles.ts"
export * from "./suites/sessions.ts"
export * from "./suites/users.ts"
export * from "./suites/series.ts"
export * from "./suites/seriesChanges.ts"
export * from "./suites/seedConflicts.ts"
export * from "./suites/attendance.ts"
export * from "./suites/invitations.ts"
export * from "./suites/webhooks.ts"
export * from "./suites/membership.ts"
export * from "./suites/model.ts"
export * from "./suites/modelFindings.ts"
export * as model from "./model/model.ts"
export * from "./suites/ownership.ts"
export * from "./suites/planningEdits.ts"
