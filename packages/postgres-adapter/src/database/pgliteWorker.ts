// The embedded database's worker thread: PGlite runs here, so that a long statement holds this
// thread and never the server's event loop (docs/decisions/0231-the-embedded-database-runs-in-a-worker-thread.md).
// Started by `InProcessConnections.start`; built to dist/pgliteWorker.js, and run from source by tests.
import { parentPort, workerData } from "node:worker_threads"
import { PGlite } from "@electric-sql/pglite"
import { BackendQueue } from "./BackendQueue.ts"
import { tarOf } from "./freshCluster.ts"
import type { FromWorker, ToWorker, WorkerTask } from "./WorkerMessages.ts"

const port = parentPort!
const task = workerData as WorkerTask
const send = (message: FromWorker, transfer: ReadonlyArray<ArrayBuffer> = []) =>
  port.postMessage(message, [...transfer])

const db = await PGlite.create(task.dataDir, {
  startParams: [...PGlite.defaultStartParams, ...task.settings],
  ...(task.startFrom === undefined ? {} : { loadDataDir: tarOf(task.startFrom) })
})
const queue = new BackendQueue(db, {
  answer: (connection, data) =>
    send({ type: "answer", connection, data: data.buffer as ArrayBuffer }, [data.buffer as ArrayBuffer]),
  failed: (connection, reason) => send({ type: "failed", connection, reason })
})
port.on("message", (message: ToWorker) => {
  switch (message.type) {
    case "messages":
      return queue.enqueue(message.connection, message.messages)
    case "closed":
      return queue.closed(message.connection)
    case "close":
      // Closing flushes PGlite's files, so the folder stays a consistent database.
      return void queue.close().then(() => db.close()).then(() => {
        send({ type: "closed" })
        port.close()
      })
  }
})
send({ type: "ready" })
