import { startServer as startServerProcess } from "@club/test-support"

export const ADMIN_NAME = "admin"
export const ADMIN_PASSWORD = "admin-password-for-tests"

export interface RunningServer {
  readonly baseUrl: string
  readonly stop: () => Promise<void>
}

/**
 * Starts the built server (embedded in-memory database) the way an operator would, with the
 * settings given on top, and waits until it answers. Only the test runs it: the consumer app
 * (app/, installed with npm outside the workspace) reaches it by its URL alone.
 */
export const startServer = async (settings: Record<string, string> = {}): Promise<RunningServer> => {
  const server = await startServerProcess({
    DATA_DIR: "memory://",
    ADMIN_NAME,
    ADMIN_PASSWORD,
    LOG_LEVEL: "warn",
    ...settings
  })
  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    stop: async () => {
      await server.stop()
    }
  }
}
