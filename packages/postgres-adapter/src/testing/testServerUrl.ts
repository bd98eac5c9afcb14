export const defaultTestDatabaseUrl = "postgres://postgres@127.0.0.1:5432/postgres"

/**
 * The PostgreSQL server the tests may use: `TEST_DATABASE_URL`, or the local default when it is
 * unset. Set it to the empty string to run on the embedded database only.
 */
export const testServerUrl = (): string | undefined => {
  const url = process.env["TEST_DATABASE_URL"] ?? defaultTestDatabaseUrl
  return url === "" ? undefined : url
}
