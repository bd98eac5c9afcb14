// Writes src/gen/todoJson.ts, the JSON writers of todo.proto's messages (src/shared/jsonWriterSource.ts,
// decision 0331), after `buf generate` in the build: generated from the contract's descriptors as
// the contract's messages are, never in git.
import { writeFileSync } from "node:fs"
import { file_todo } from "@club/contract/todo"
import { jsonWriterSource } from "../src/shared/jsonWriterSource.ts"

const target = new URL("../src/gen/todoJson.ts", import.meta.url)
writeFileSync(target, jsonWriterSource(file_todo, { name: "file_todo", from: "@club/contract/todo" }))
