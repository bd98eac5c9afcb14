import { Effect, Schema } from "effect"
import { AthleteDto, UserDto, SessionDto } from "@club/contract/rest"
const n = 500
const users = Array.from(
  { length: n },
  (_, i) => ({
    id: i + 1,
    name: "user" + i,
    email: i % 2 ? null : `u${i}@club.example`,
    role: "COACH" as const,
    coachId: 3,
    athleteId: null
  })
)
const athletes = Array.from(
  { length: n },
  (_, i) => ({
    id: i + 1,
    name: "Athlete " + i,
    categorie: "Senior",
    niveau: "N1",
    groupes: [],
    sessionIds: [],
    userId: null
  })
)
const sessions = Array.from(
  { length: n },
  (_, i) => ({
    id: i + 1,
    name: "Session " + i,
    isRecurrent: false,
    creneau: "2026-01-06T13:00:00",
    duree: 45,
    groupe: "G0",
    coachId: 6,
    athleteIds: [36, 38, 40, 42, 44, 137, 139, 141, 143, 145],
    activiteIds: [5, 1005, 2005, 3005, 4005]
  })
)
const bench = (label: string, schema: Schema.Top, rows: ReadonlyArray<unknown>) => {
  const codec = Schema.toCodecJson(Schema.Array(schema as any))
  const encode = Schema.encodeUnknownEffect(codec as any, { disableChecks: true } as any)
  for (let i = 0; i < 300; i++) Effect.runSync(encode(rows) as any)
  const reps = 400
  let t = performance.now()
  for (let i = 0; i < reps; i++) Effect.runSync(encode(rows) as any)
  const enc = (performance.now() - t) * 1000 / reps / n
  t = performance.now()
  for (let i = 0; i < reps; i++) JSON.stringify(rows)
  const str = (performance.now() - t) * 1000 / reps / n
  console.log(`${label}: schema encode ${enc.toFixed(3)} us/entry, JSON.stringify ${str.toFixed(3)} us/entry`)
}
bench("user", UserDto, users)
bench("athlete", AthleteDto, athletes)
bench("session", SessionDto, sessions)
