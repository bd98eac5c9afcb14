import { expect } from "vitest"

const expandedUntil = (series: object) => (series as { readonly expandedUntil: string }).expandedUntil

/**
 * A series read back is the series written, except that a read extends it to the horizon of its
 * own moment: `expandedUntil` may have moved on when the clock passed a second meanwhile.
 */
export const expectSameSeries = <S extends object>(read: S, written: S) => {
  expect({ ...read, expandedUntil: expandedUntil(written) }).toEqual(written)
  expect(expandedUntil(read) >= expandedUntil(written)).toBe(true)
}
