// What encoding an answer's entries costs the server, per entry, with the checks off as the server
// encodes answers: the contract's user, athlete and session schemas over 500 entries, interpreted
// and compiled by effect's schema JIT compiler (which the server enables), beside
// `JSON.stringify` of the same entries. Each way runs in a process of its own, since the compiler
// is enabled for a whole process. Usage:
//   node src/tools/answerEncoding.ts
import { execFileSync } from "node:child_process"

const entries = 500
const rounds = 400

const measure = async (compiled: boolean) => {
  if (compiled) await import("effect/schema/SchemaJITCompiler/enable")
  const { Effect, Schema } = await import("effect")
  const { AthleteDto, SessionDto, UserDto } = await import("@club/contract/rest")
  const of = <A>(make: (i: number) => A) => Array.from({ length: entries }, (_, i) => make(i))
  const cases = [
    [
      "user",
      UserDto,
      of((i) => ({ id: i + 1, name: `user${i}`, email: i % 2 ? null : `u${i}@club.example`, role: "COACH" }))
    ],
    [
      "athlete",
      AthleteDto,
      of((i) => ({
        id: i + 1,
        name: `Athlete ${i}`,
        categorie: "Senior",
        niveau: "N1",
        groupes: [],
        sessionIds: [],
        userId: null
      }))
    ],
    [
      "session",
      SessionDto,
      of((i) => ({
        id: i + 1,
        name: `Session ${i}`,
        isRecurrent: false,
        creneau: "2026-01-06T13:00:00",
        duree: 45,
        groupe: "G0",
        coachId: 6,
        athleteIds: [36, 38, 40, 42, 44, 137, 139, 141, 143, 145],
        activiteIds: [5, 1005, 2005, 3005, 4005]
      }))
    ]
  ] as const
  for (const [name, schema, rows] of cases) {
    const encode = Schema.encodeUnknownEffect(Schema.toCodecJson(Schema.Array(schema)), { disableChecks: true })
    const perEntry = (run: () => unknown) => {
      for (let i = 0; i < rounds; i++) run()
      const start = performance.now()
      for (let i = 0; i < rounds; i++) run()
      return ((performance.now() - start) * 1000 / rounds / entries).toFixed(3)
    }
    const schemaMicros = perEntry(() => Effect.runSync(encode(rows)))
    const stringifyMicros = perEntry(() => JSON.stringify(rows))
    console.log(
      `${compiled ? "compiled   " : "interpreted"} ${
        name.padEnd(8)
      } schema encode ${schemaMicros} µs an entry, JSON.stringify ${stringifyMicros} µs`
    )
  }
}

const mode = process.argv[2]
if (mode === "interpreted" || mode === "compiled") {
  await measure(mode === "compiled")
} else {
  for (const way of ["interpreted", "compiled"]) {
    process.stdout.write(execFileSync(process.execPath, [import.meta.filename, way], { encoding: "utf8" }))
  }
}
