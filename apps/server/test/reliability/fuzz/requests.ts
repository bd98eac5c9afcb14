import { Arbitrary, Effect, Schema } from "effect"
import fc from "fast-check"
import type { RawRequest } from "../support/rawHttp.ts"
import type { ContractEndpoint } from "./contract.ts"
import { hostileIdSegment, hostileJson, malformedBodies, maxPathParameter, wellFormed } from "./hostileValues.ts"

export type Caller = "ADMIN" | "COACH" | "ATHLETE" | "none" | "garbage" | "expired" | "forged" | "alg-none"

/** Records that exist when the fuzzing starts, so that some generated requests reach real rows. */
export interface Pools {
  readonly athletes: ReadonlyArray<number>
  readonly coaches: ReadonlyArray<number>
  readonly sessions: ReadonlyArray<number>
  readonly activities: ReadonlyArray<number>
  /** Users the fuzzer may change or delete: never the ones whose tokens it uses. */
  readonly users: ReadonlyArray<number>
  readonly admins: ReadonlyArray<number>
  readonly themes: ReadonlyArray<string>
}

export interface FuzzRequest extends RawRequest {
  /** Undefined for a request aimed at no endpoint (an unknown path or method). */
  readonly endpoint: ContractEndpoint | undefined
  readonly caller: Caller
  readonly variant: string
  /** Whether the request can change data when accepted; reads and logins cannot (a failed login is only counted). */
  readonly writes: boolean
  /** Built to be refused (wrong input, wrong token): such requests are run together, so that a batch of refusals can be checked for no change. */
  readonly hostile: boolean
}

type Pool = keyof Omit<Pools, "themes">

/** Which records an endpoint's `:id` names. */
const idPoolOf = (endpoint: ContractEndpoint): Pool => {
  const [group, name] = endpoint.id.split(".") as [string, string]
  if (group === "schedule") return name === "activitiesOfSession" ? "sessions" : "athletes"
  const byGroup: Record<string, Pool> = {
    activities: "activities",
    athletes: "athletes",
    sessions: "sessions",
    coaches: "coaches",
    rootCoaches: "coaches",
    users: "users",
    admins: "admins"
  }
  return byGroup[group] ?? "athletes"
}

/** Body fields that hold ids, and the records they name. */
const idFields: Record<string, Pool> = {
  sessionId: "sessions",
  sessionIds: "sessions",
  coachId: "coaches",
  athleteId: "athletes",
  athleteIds: "athletes",
  activiteIds: "activities",
  adminId: "admins"
}

const localDateTime = fc.date({
  min: new Date("2020-01-01T00:00:00Z"),
  max: new Date("2030-12-31T23:59:59Z"),
  noInvalidDate: true
})
  .map((date) => date.toISOString().slice(0, 19))
const calendarDate = localDateTime.map((value) => value.slice(0, 10))

/**
 * Valid payloads, sampled from the endpoint's own payload schema (effect's Schema-derived
 * arbitraries), encoded as they travel. Dates are generated apart: their schema is a filter
 * that random strings almost never pass.
 */
const sampleValid = (schema: Schema.Top, count: number, seed: number): ReadonlyArray<unknown> => {
  const samples = Effect.runSync(
    Arbitrary.sampleEffect(Arbitrary.schema(schema as Schema.Codec<unknown, unknown>), { count, seed })
  )
  const encode = Schema.encodeUnknownSync(schema as Schema.Codec<unknown, unknown>)
  return samples.map((sample) => encode(sample))
}

const pick = <A>(values: ReadonlyArray<A>, fallback: A) =>
  values.length === 0 ? fc.constant(fallback) : fc.constantFrom(...values)

const idFrom = (pools: Pools, pool: Pool) =>
  fc.oneof({ arbitrary: pick(pools[pool], 1), weight: 4 }, {
    arbitrary: fc.integer({ min: 1_000_000, max: 2 ** 31 }),
    weight: 1
  })

/** A valid payload with its ids drawn mostly from existing records, and real dates. */
const plausiblePayload = (endpoint: ContractEndpoint, pools: Pools, samples: ReadonlyArray<unknown>) =>
  fc.tuple(
    fc.constantFrom(...samples),
    fc.dictionary(fc.constantFrom(...Object.keys(idFields)), fc.constant(true), { maxKeys: 4 }),
    fc.tuple(...Object.values(idFields).map((pool) => idFrom(pools, pool))),
    fc.array(idFrom(pools, "athletes"), { maxLength: 4 }),
    fc.array(idFrom(pools, "activities"), { maxLength: 3 }),
    localDateTime
  ).map(([sample, swap, ids, athleteIds, activiteIds, creneau]) => {
    if (typeof sample !== "object" || sample === null) return sample
    const payload: Record<string, unknown> = { ...(sample as Record<string, unknown>) }
    Object.keys(idFields).forEach((field, index) => {
      if (!(field in payload) || swap[field] !== true) return
      payload[field] = field === "athleteIds" ?
        athleteIds
        : field === "activiteIds" ?
        activiteIds
        : field === "sessionIds" ?
        [ids[index]]
        : ids[index]
    })
    if ("creneau" in payload) payload["creneau"] = creneau
    if (endpoint.id === "auth.login") payload["password"] = `wrong-${String(payload["password"]).slice(0, 50)}`
    return payload
  })

/** The payload with one field replaced by a value of the wrong kind, one field removed, or one field added. */
const mutatedPayload = (base: fc.Arbitrary<unknown>) =>
  fc.tuple(base, fc.nat(), hostileJson, fc.constantFrom("replace", "remove", "add")).map(
    ([payload, index, value, how]) => {
      if (typeof payload !== "object" || payload === null) return value
      const fields = Object.keys(payload)
      const copy: Record<string, unknown> = { ...(payload as Record<string, unknown>) }
      const field = fields.length === 0 ? "name" : fields[index % fields.length]!
      if (how === "remove") delete copy[field]
      else if (how === "add") copy[`extra_${index % 7}`] = value
      else copy[field] = value
      return copy
    }
  )

const paramValue = (endpoint: ContractEndpoint, name: string, pools: Pools, hostile: boolean) => {
  if (hostile) return hostileIdSegment
  if (name === "theme") {
    return fc.oneof(
      pick(pools.themes, "Cardio"),
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
      fc.string({ unit: "grapheme", minLength: 150, maxLength: 200 })
    )
      .map((theme) => encodeURIComponent(wellFormed(theme)))
      .filter((segment) => segment.length <= maxPathParameter)
  }
  if (name === "date" || name === "startDate" || name === "endDate") return calendarDate
  return idFrom(pools, idPoolOf(endpoint)).map(String)
}

const pathOf = (endpoint: ContractEndpoint, pools: Pools, hostile: boolean) =>
  fc.tuple(...endpoint.paramNames.map((name) => paramValue(endpoint, name, pools, hostile))).map((values) =>
    endpoint.paramNames.reduce((path, name, index) => path.replace(`:${name}`, values[index]!), endpoint.path)
  )

/** The variant of a request whose path holds a name (a segment starting with a letter) where its route has an id. */
export const nameAsIdVariant = "name-as-id"

/** Whether `path`, built from `endpoint`'s template, holds a name where the template has an id parameter. */
const namesAnId = (endpoint: ContractEndpoint, path: string) => {
  const given = path.split("/")
  return endpoint.path.split("/").some((segment, index) =>
    (segment === ":id" || /^:[a-z]+Id$/u.test(segment)) && /^[A-Za-z]/u.test(given[index] ?? "")
  )
}

const callers = fc.oneof(
  { arbitrary: fc.constantFrom<Caller>("ADMIN", "COACH"), weight: 6 },
  { arbitrary: fc.constant<Caller>("ATHLETE"), weight: 2 },
  { arbitrary: fc.constantFrom<Caller>("none", "garbage", "expired", "forged", "alg-none"), weight: 1 }
)

const isRead = (endpoint: ContractEndpoint) =>
  endpoint.method === "GET" || endpoint.id === "athletes.all" || endpoint.id === "auth.login"

const jsonHeaders = { "content-type": "application/json" }
const oversize = () => JSON.stringify({ name: "x".repeat(1024 * 1024 + 16) })

/** Every kind of request the fuzzer sends to one endpoint. */
const requestsFor = (
  endpoint: ContractEndpoint,
  pools: Pools,
  seed: number
): fc.Arbitrary<Omit<FuzzRequest, "headers"> & { readonly contentType?: string }> => {
  const samples = endpoint.payload === undefined ? [] : sampleValid(endpoint.payload, 100, seed)
  const plausible = endpoint.payload === undefined ? fc.constant(undefined) : plausiblePayload(endpoint, pools, samples)
  const base = { endpoint, method: endpoint.method, writes: !isRead(endpoint) }
  const variant = (
    name: string,
    hostilePath: boolean,
    body: fc.Arbitrary<string | undefined>,
    hostile: boolean,
    contentType?: string
  ) =>
    fc.tuple(pathOf(endpoint, pools, hostilePath), body, callers).map(([path, text, caller]) => ({
      ...base,
      // A name where the route has an id is no route (404, or 405 where the path is served): judged as unrouted.
      ...(hostilePath && namesAnId(endpoint, path) ? { endpoint: undefined, variant: nameAsIdVariant } : {}),
      path,
      caller,
      variant: hostilePath && namesAnId(endpoint, path) ? nameAsIdVariant : name,
      ...(text === undefined ? {} : { body: text }),
      ...(contentType === undefined ? {} : { contentType }),
      hostile: hostile || !["ADMIN", "COACH", "ATHLETE"].includes(caller)
    }))
  const json = (payload: fc.Arbitrary<unknown>) =>
    payload.map((value) => value === undefined ? undefined : JSON.stringify(value))
  const hasParams = endpoint.paramNames.length > 0
  const kinds = [
    { arbitrary: variant("valid", false, json(plausible), false), weight: 100 },
    ...(hasParams ? [{ arbitrary: variant("hostile-path", true, json(plausible), true), weight: 40 }] : [])
  ]
  if (endpoint.payload === undefined) {
    kinds.push({ arbitrary: variant("unexpected-body", false, malformedBodies, true, "application/json"), weight: 20 })
  } else {
    kinds.push(
      { arbitrary: variant("mutated-field", false, json(mutatedPayload(plausible)), true), weight: 80 },
      { arbitrary: variant("wrong-top-level", false, json(hostileJson), true), weight: 20 },
      { arbitrary: variant("malformed-json", false, malformedBodies, true), weight: 40 },
      { arbitrary: variant("wrong-content-type", false, json(plausible), true, "text/plain"), weight: 20 },
      {
        arbitrary: variant(
          "form-content-type",
          false,
          fc.constant("name=x&role=ADMIN"),
          true,
          "application/x-www-form-urlencoded"
        ),
        weight: 20
      },
      { arbitrary: variant("oversize", false, fc.constant(undefined).map(oversize), true), weight: 1 }
    )
  }
  return fc.oneof(...kinds)
}

const unroutedPaths = fc.oneof(
  fc.constantFrom(
    "/",
    "/nope",
    "/athletes",
    "/session",
    "/activite",
    "/users",
    "/admins",
    "/coaches",
    "/auth",
    "/health",
    "/openapi",
    "/.env",
    "/..",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/athletes/1/2/3/4",
    "/session/create/extra"
  ),
  hostileIdSegment.map((segment) => `/${segment}/${segment}`)
)

/** Requests aimed at no endpoint: unknown paths, or known paths with methods the contract does not serve. */
const unrouted: fc.Arbitrary<Omit<FuzzRequest, "headers"> & { readonly contentType?: string }> = fc.tuple(
  fc.constantFrom("GET", "PATCH", "OPTIONS", "TRACE", "PROPFIND"),
  unroutedPaths,
  callers
).map(([method, path, caller]) => ({
  endpoint: undefined,
  method,
  path,
  caller,
  variant: "unrouted",
  writes: false,
  hostile: true
}))

export interface Tokens extends Record<Caller, string | null> {}

/** The principals' ids the fuzzer must spare: their users, and the athlete record a user of theirs links. */
export interface ProtectedIds {
  readonly users: ReadonlyArray<number>
  readonly athletes: ReadonlyArray<number>
}

/**
 * Where each endpoint that changes or ends a user names it: the path's segment, counted from the end,
 * and whether it names the user or an athlete record a user may link.
 */
const userSegmentFromEnd: Readonly<Record<string, { readonly fromEnd: number; readonly names: keyof ProtectedIds }>> = {
  "users.update": { fromEnd: 1, names: "users" },
  "users.delete": { fromEnd: 1, names: "users" },
  // An erasure ends the user's tokens: `/people/{id}/erase`, and `/people/athletes/{id}/erase` its athlete's user's.
  "people.erase": { fromEnd: 2, names: "users" },
  "people.eraseAthlete": { fromEnd: 2, names: "athletes" }
}

/** The users whose tokens the fuzzer sends: it must not change, delete or erase them, or its callers stop being who they were. */
const sparesPrincipals = (protectedIds: ProtectedIds) => (request: FuzzRequest): FuzzRequest => {
  const endpoint = request.endpoint
  const named = endpoint === undefined ? undefined : userSegmentFromEnd[endpoint.id]
  if (endpoint === undefined || named === undefined) return request
  const { fromEnd } = named
  const segments = request.path.split("/")
  const segment = segments.at(-fromEnd)!
  let id: unknown
  try {
    id = (Schema.decodeUnknownSync(endpoint.params as Schema.Codec<{ id: number }, unknown>)({
      id: decodeURIComponent(segment)
    })).id
  } catch {
    return request
  }
  if (!protectedIds[named.names].includes(id as number)) return request
  segments[segments.length - fromEnd] = "987654321"
  return { ...request, path: segments.join("/") }
}

/** `count` requests over every endpoint of the contract, reproducible from `seed`. */
export const generateRequests = (
  endpoints: ReadonlyArray<ContractEndpoint>,
  pools: Pools,
  tokens: Tokens,
  count: number,
  seed: number,
  protectedIds: ProtectedIds
): ReadonlyArray<FuzzRequest> => {
  const arbitrary = fc.oneof(
    ...endpoints.map((endpoint, index) => ({ arbitrary: requestsFor(endpoint, pools, seed + index), weight: 10 })),
    { arbitrary: unrouted, weight: 10 }
  )
  return fc.sample(arbitrary, { numRuns: count, seed }).map(({ contentType, ...request }) => {
    const headers: Record<string, string> = {}
    const token = tokens[request.caller]
    if (token !== null) headers["authorization"] = `Bearer ${token}`
    if (request.body !== undefined) {
      Object.assign(headers, contentType === undefined ? jsonHeaders : { "content-type": contentType })
    }
    return sparesPrincipals(protectedIds)({ ...request, headers })
  })
}
