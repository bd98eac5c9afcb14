import { type Array as Arr, Effect, Pull, Scope, Stream } from "effect"
import { HttpServerResponse } from "effect/http"

const utf8 = new TextEncoder()

/**
 * A JSON array written while its elements are still being read, so that answering a listing of any
 * size holds one batch in memory, not the whole list.
 *
 * The first batch is read before the answer starts: a database that cannot answer still gets its
 * 503 problem, with a status line not yet sent. A failure after that can only cut the connection
 * (the client sees a truncated body, never a complete-looking one). The reading stays open in the
 * request's scope, which the server closes once the body is written or the client has gone.
 */
export const jsonArrayResponse = Effect.fnUntraced(function*<A, E>(
  items: Stream.Stream<A, E>,
  toJson: (item: A) => unknown
) {
  const pull = yield* Stream.toPull(items).pipe(Scope.provide(yield* Scope.Scope))
  const batch = (separator: string, elements: Arr.NonEmptyReadonlyArray<A>): Uint8Array => {
    let text = separator
    for (let i = 0; i < elements.length; i++) text += (i === 0 ? "" : ",") + JSON.stringify(toJson(elements[i]!))
    return utf8.encode(text)
  }
  const first = yield* Pull.catchDone(
    Effect.map(pull, (elements) => batch("[", elements)),
    () => Effect.succeed(undefined)
  )
  if (first === undefined) return HttpServerResponse.text("[]", { contentType: "application/json" })
  const rest = Stream.fromPull(Effect.succeed(Effect.map(pull, (elements) => [batch(",", elements)] as const)))
  return HttpServerResponse.stream(
    Stream.make(first).pipe(Stream.concat(rest), Stream.concat(Stream.make(utf8.encode("]")))),
    { contentType: "application/json" }
  )
})
