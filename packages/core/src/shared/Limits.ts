/** Limits of CONTRACT.md: the seed shows none, these are ours. */
export const Limits = {
  shortText: 200,
  longText: 10_000,
  idArray: 10_000,
  minPasswordLength: 8,
  maxPasswordLength: 1_000,
  /**
   * The largest id the database generates: ids travel as JSON numbers, exact only up to
   * 2^53-1 (Number.MAX_SAFE_INTEGER).
   */
  maxGeneratedId: 9_007_199_254_740_991,
  /**
   * The largest id a caller may supply on create (2^31-1, the signed 32-bit range). Generated
   * ids continue after the largest supplied one, so even a supplied id at this bound leaves more
   * than 2^52 ids to generate.
   */
  maxSuppliedId: 2_147_483_647
} as const
