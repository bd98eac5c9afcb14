import type { Brand } from "effect"

/** A contract type without its brands: what a caller writes (`5`, not a branded `SessionId`). */
export type Plain<T> = T extends Brand.Brand<any> ? (T extends number ? number : T extends string ? string : T)
  : T extends ReadonlyArray<infer U> ? ReadonlyArray<Plain<U>>
  : T extends object ? { readonly [K in keyof T]: Plain<T[K]> }
  : T
