// What an `Effect.gen` costs when its generator function is written inside the function that runs
// per request, against one generator function for every call (`Effect.fnUntraced`, hoisted) and a
// pipe: each runs the same step (read a value, add one) as a link of a chain of eight, in one fiber.
// V8 builds a new generator function's prototype and object map the first time it is called, and
// every request calls a new one (docs/DECISIONS.md, "No generator function made per request").
// Usage:
//   node src/tools/generatorCost.ts [runs=200000]
import { Effect } from "effect"

const links = 8
const runs = Number(process.argv[2] ?? 200_000)

const steps: ReadonlyArray<readonly [string, (value: number) => Effect.Effect<number>]> = [
  [
    "Effect.gen, a new generator function per call",
    (value) =>
      Effect.gen(function*() {
        return (yield* Effect.succeed(value)) + 1
      })
  ],
  [
    "Effect.fnUntraced, one generator function",
    Effect.fnUntraced(function*(value: number) {
      return (yield* Effect.succeed(value)) + 1
    })
  ],
  ["pipe (Effect.map)", (value) => Effect.map(Effect.succeed(value), (read) => read + 1)]
]

const chainOf = (step: (value: number) => Effect.Effect<number>) => {
  let chain: Effect.Effect<number> = Effect.succeed(0)
  for (let i = 0; i < links; i++) chain = Effect.flatMap(chain, step)
  return chain
}

for (const round of [1, 2, 3]) {
  for (const [name, step] of steps) {
    const chain = chainOf(step)
    for (let i = 0; i < runs / 10; i++) Effect.runSync(chain)
    const start = process.hrtime.bigint()
    for (let i = 0; i < runs; i++) Effect.runSync(chain)
    const nanos = Number(process.hrtime.bigint() - start) / runs / links
    console.log(`round ${round}  ${name.padEnd(48)} ${nanos.toFixed(0).padStart(6)} ns a step`)
  }
}
