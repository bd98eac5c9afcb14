/**
 * A class of expected errors (a refusal, an unknown id, bad input) whose instances carry no stack
 * trace. They are answers the adapters translate, not bugs: nothing prints their stack, and
 * capturing it was most of what answering a refusal cost (README "Performance" has the figures).
 * Defects keep their stack traces.
 */
/** `stackTraceLimit` is V8's (Node, Deno, Bun's JSC has it too); elsewhere it is absent and nothing changes. */
const ErrorWithLimit = Error as ErrorConstructor & { stackTraceLimit?: number | undefined }

// oxlint-disable-next-line no-explicit-any -- a mixin's constructor takes any arguments (TS2545)
export const withoutStackTrace = <C extends abstract new(...args: Array<any>) => object>(Base: C): C => {
  abstract class WithoutStackTrace extends Base {
    // oxlint-disable-next-line no-explicit-any -- see above
    constructor(...args: Array<any>) {
      const limit = ErrorWithLimit.stackTraceLimit
      ErrorWithLimit.stackTraceLimit = 0
      try {
        super(...args)
      } finally {
        ErrorWithLimit.stackTraceLimit = limit
      }
    }
  }
  return WithoutStackTrace
}
