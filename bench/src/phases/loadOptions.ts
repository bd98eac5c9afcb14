import { settings } from "../settings.ts"

/** How long and how hard each scenario is loaded, from the settings (BENCH_CONNECTIONS, BENCH_DURATION, ...). */
export const loadOptions = () => ({
  connections: settings.connections,
  warmupSeconds: settings.warmupSeconds,
  durationSeconds: settings.durationSeconds,
  rounds: settings.rounds
})
