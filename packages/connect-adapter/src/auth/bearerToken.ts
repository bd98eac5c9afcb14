/** The token of an `Authorization: Bearer <token>` header; empty when absent or of another scheme. */
export const bearerToken = (header: string | null): string => /^Bearer +(\S+) *$/i.exec(header ?? "")?.[1] ?? ""
