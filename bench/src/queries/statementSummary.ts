/**
 * A statement on one line, short enough for a table: whitespace collapsed and the select list of
 * a SELECT left out (`SELECT … FROM …`), since what tells statements apart is what they read and
 * how they filter it. The FROM is the first one outside parentheses, not one of a subquery in the
 * select list.
 */
const withoutSelectList = (flat: string): string => {
  if (!/^SELECT\s/i.test(flat)) return flat
  let depth = 0
  for (let index = 6; index < flat.length; index++) {
    const char = flat[index]
    if (char === "(") depth++
    else if (char === ")") depth--
    else if (depth === 0 && /^ FROM /i.test(flat.slice(index, index + 6))) return `SELECT …${flat.slice(index)}`
  }
  return flat
}

export const statementSummary = (text: string, length = 100): string => {
  const flat = withoutSelectList(text.replace(/\s+/g, " ").trim())
  return flat.length <= length ? flat : `${flat.slice(0, length - 1)}…`
}
