/** Limits of CONTRACT.md: the seed shows none, these are ours. */
export const Limits = {
  shortText: 200,
  longText: 10_000,
  idArray: 10_000,
  minPasswordLength: 8,
  maxPasswordLength: 1_000
} as const
