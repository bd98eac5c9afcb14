import { Task, TaskCreate, TaskId, TaskRepository } from "@club/core"
import { assert, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ContractSuite } from "./Contract.ts"

export const taskRepositoryContract: ContractSuite = {
  title: "TaskRepository",
  tests: (it) => {
    it.effect("creates tasks with a generated UUID, lists them oldest first, deletes one", () =>
      Effect.gen(function*() {
        const tasks = yield* TaskRepository
        const first = yield* tasks.create(new TaskCreate({ title: "first", description: "" }))
        const second = yield* tasks.create(new TaskCreate({ title: "second", description: "details" }))
        const third = yield* tasks.create(new TaskCreate({ title: "third", description: "" }))
        assert.instanceOf(first, Task)
        expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u)
        expect(new Set([first.id, second.id, third.id]).size).toBe(3)
        expect(second).toMatchObject({ title: "second", description: "details" })
        assert.instanceOf(first.createdAt, Date)
        expect(Math.abs(first.createdAt.getTime() - Date.now())).toBeLessThan(60_000)

        expect((yield* tasks.list()).map((task) => task.id)).toEqual([first.id, second.id, third.id])
        expect(yield* tasks.list()).toEqual([first, second, third])

        expect(yield* tasks.delete(second.id)).toEqual(Option.some(second))
        expect(yield* tasks.delete(second.id)).toEqual(Option.none())
        expect((yield* tasks.list()).map((task) => task.id)).toEqual([first.id, third.id])
      }))

    it.effect("deleting an id that matches no task gives none", () =>
      Effect.gen(function*() {
        const tasks = yield* TaskRepository
        expect(yield* tasks.delete(TaskId.make("00000000-0000-4000-8000-000000000000"))).toEqual(Option.none())
      }))
  }
}
