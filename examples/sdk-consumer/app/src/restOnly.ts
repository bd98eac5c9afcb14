import { ClubRestClient, sessionId } from "@club/client-sdk/rest"
import { makeTodoClient, makeTodoTransport, retryPolicy } from "@club/client-sdk/todo"
import { Effect } from "effect"
import { assert, failure, step } from "./check.ts"

/** The two halves on their own: REST without protobuf, TodoService without the REST contract's client. */
export const restOnly = (baseUrl: string, adminPassword: string) =>
  step("entry points: @club/client-sdk/rest and @club/client-sdk/todo alone", async () => {
    const rest = await ClubRestClient.login({ baseUrl, name: "admin", password: adminPassword })
    assert.equal((await rest.auth.me()).role, "ADMIN")
    await failure(rest.sessions.get({ params: { id: sessionId(1) } }), { tag: "Forbidden", status: 403 })
    const transport = makeTodoTransport({ baseUrl, token: { value: rest.token, expiresAt: undefined } })
    const todo = makeTodoClient(transport, retryPolicy(undefined))
    const task = await Effect.runPromise(todo.createTask({ title: "From the todo entry point" }))
    assert.equal(task.success, true)
    assert.equal((await Effect.runPromise(todo.deleteTask(task.id))).success, true)
  })
