/**
 * Binds a list of ids as one `bigint[]` parameter. The driver infers `int4` for small numbers
 * and `int8` for large ones, and refuses an array that mixes both, so every element goes as BigInt.
 */
export const int8Array = (ids: Iterable<number>): ReadonlyArray<bigint> => Array.from(new Set(ids), (id) => BigInt(id))
