import { Clock, Effect, Layer, Option, Random } from "effect"
import { TaskId } from "../shared/Ids.ts"
import { Task, type TaskCreate } from "./Task.ts"
import { TaskRepository } from "./TaskRepository.ts"
import { traced } from "../shared/traced.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"

const hex = (byte: number) => byte.toString(16).padStart(2, "0")

/** A version 4 UUID from the Random service (so that a test may seed it). */
const randomUuid = Effect.gen(function*() {
  const bytes: Array<number> = []
  for (let i = 0; i < 16; i++) bytes.push(yield* Random.nextIntBetween(0, 256, { halfOpen: true }))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const text = bytes.map(hex).join("")
  return TaskId.make(
    `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`
  )
})

export const InMemoryTaskRepository = Layer.effect(
  TaskRepository,
  Effect.gen(function*() {
    const { tasks } = yield* InMemoryStore

    const create = traced("TaskRepository.create")(function*(input: TaskCreate) {
      const createdAt = new Date(yield* Clock.currentTimeMillis)
      let id = yield* randomUuid
      while (tasks.has(id)) id = yield* randomUuid
      const task = new Task({ id, title: input.title, description: input.description, createdAt })
      tasks.set(id, task)
      return task
    })

    const list = traced("TaskRepository.list")(function*() {
      return [...tasks.values()]
    })

    const remove = traced("TaskRepository.delete")(function*(id: TaskId) {
      const task = tasks.get(id)
      if (task === undefined) return Option.none()
      tasks.delete(id)
      return Option.some(task)
    })

    return TaskRepository.of({ create, list, delete: remove })
  })
)
