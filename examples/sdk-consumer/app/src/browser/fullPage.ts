import { ClubApiError, ClubClient } from "@club/client-sdk"

/** The same page with the whole SDK: REST, then TodoService over Connect JSON and gRPC-Web, from the browser. */
const run = async (baseUrl: string, password: string) => {
  try {
    const admin = await ClubClient.login({ baseUrl, name: "admin", password, timeoutMs: 5_000 })
    const created = await admin.todo.createTask({ title: "Written by a browser" })
    const grpcWeb = ClubClient.fromToken({ baseUrl, token: admin.token, todoProtocol: "grpc-web" })
    const listed = await grpcWeb.todo.listTasks()
    return { ok: true, me: (await admin.auth.me()).name, task: created.title, listed: listed.map((task) => task.title) }
  } catch (error) {
    return { ok: false, tag: error instanceof ClubApiError ? error.tag : "thrown", message: String(error) }
  }
}

Object.assign(globalThis, { clubFull: run })
