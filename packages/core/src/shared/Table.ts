import { type EntityKind, IdAlreadyInUse, UnknownReferences } from "./Errors.ts"
import { Limits } from "./Limits.ts"

const ascending = (a: number, b: number) => a - b

/**
 * The records of one kind by id, with the id rules of a database identity column
 * (CONTRACT.md "Identifiers"): a generated id comes after every id generated or supplied before,
 * skips ids in use, is never handed out twice (not even after a delete), and stops at
 * `Limits.maxGeneratedId`; a supplied id is taken only when no record has it, and moves the count
 * past it.
 */
export class Table<A extends { readonly id: number }> {
  readonly #rows = new Map<number, A>()
  /** The largest id generated or supplied so far: what a sequence calls its last value. */
  #last = 0

  constructor(readonly entity: EntityKind) {}

  get(id: number): A | undefined {
    return this.#rows.get(id)
  }

  has(id: number): boolean {
    return this.#rows.has(id)
  }

  /** Every record, in no particular order. */
  values(): IterableIterator<A> {
    return this.#rows.values()
  }

  /** Every record, in id order. */
  all(): Array<A> {
    return [...this.#rows.values()].sort((a, b) => ascending(a.id, b.id))
  }

  /**
   * The id of a record about to be inserted: the supplied one when it is free, or a generated one.
   * Call it after every other check of the write, since generating an id uses it up.
   */
  newId(supplied: A["id"] | null): A["id"] | IdAlreadyInUse {
    if (supplied !== null) {
      return this.#rows.has(supplied)
        ? new IdAlreadyInUse({ entity: this.entity, id: supplied })
        : supplied
    }
    do {
      this.#last++
    } while (this.#rows.has(this.#last))
    // As the database's identity columns do: past the bound every create fails, as a defect.
    if (this.#last > Limits.maxGeneratedId) throw new Error(`${this.entity}: no id left to generate`)
    return this.#last as A["id"]
  }

  /** Stores a new record (its id from `newId`). */
  insert(record: A): A {
    this.#rows.set(record.id, record)
    this.#last = Math.max(this.#last, record.id)
    return record
  }

  /** Stores a record over the one with its id. */
  replace(record: A): A {
    this.#rows.set(record.id, record)
    return record
  }

  /** Whether a record was there to delete. */
  delete(id: number): boolean {
    return this.#rows.delete(id)
  }

  /** Fails naming `field` and every id of `ids` no record has (ascending, without repeats); none when all exist. */
  unknownReferences(field: string, ids: Iterable<number>): UnknownReferences | undefined {
    const unknown = [...new Set(ids)].filter((id) => !this.#rows.has(id)).sort(ascending)
    return unknown.length === 0 ? undefined : new UnknownReferences({ field, entity: this.entity, ids: unknown })
  }
}
