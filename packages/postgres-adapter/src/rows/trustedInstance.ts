/**
 * An instance of a domain class from fields read out of our own tables, without the constructor's
 * schema pass: the columns' types and constraints already hold what that pass would check, and on
 * a listing the pass cost more than reading the rows did (docs/DECISIONS.md, "Figures stay out of comments").
 * The result has the class's prototype and the same own fields as `new Class(fields)`, so
 * equality, `instanceof` and `Schema.is` treat it alike (test/trustedInstance.test.ts).
 */
// oxlint-disable-next-line no-explicit-any -- any class constructor, whatever its options
export const trustedInstance = <C extends new(props: any, options?: any) => object>(
  Class: C,
  fields: ConstructorParameters<C>[0]
): InstanceType<C> => Object.assign(Object.create(Class.prototype) as InstanceType<C>, fields)
