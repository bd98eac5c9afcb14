/**
 * Everything the bench starts (processes, databases, folders) registers how to undo it here.
 * The steps run newest first, once, whether the bench ends normally, fails, or is interrupted.
 */
type Step = () => Promise<void> | void

const steps: Array<{ readonly name: string; readonly step: Step }> = []
/** Kills that must still happen when the process exits without running async code. */
const onExit = new Set<() => void>()

export const registerCleanup = (name: string, step: Step): () => void => {
  const entry = { name, step }
  steps.push(entry)
  return () => {
    const index = steps.indexOf(entry)
    if (index >= 0) steps.splice(index, 1)
  }
}

export const registerExitKill = (kill: () => void): () => void => {
  onExit.add(kill)
  return () => onExit.delete(kill)
}

export const runCleanups = async (): Promise<void> => {
  while (steps.length > 0) {
    const { name, step } = steps.pop()!
    try {
      await step()
    } catch (error) {
      console.error(`cleanup "${name}" failed:`, error)
    }
  }
}

let interrupted = false

/** SIGINT/SIGTERM: undo everything, then leave with the conventional code. */
export const installSignalHandlers = (): void => {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (interrupted) return
      interrupted = true
      console.error(`\n${signal}: stopping the processes the bench started and dropping its databases`)
      void runCleanups().finally(() => process.exit(130))
    })
  }
  process.on("exit", () => {
    for (const kill of onExit) kill()
  })
}
