import fc from "fast-check"

/** The text with each lone surrogate replaced by U+FFFD, for where a string must be valid UTF-16 (a URL, a protobuf string). */
export const wellFormed = (text: string): string =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu, "\uFFFD")

/** Text that has broken other services: injections, paths, format strings, markup. */
export const injectionTexts = [
  "' OR '1'='1",
  "1; DROP TABLE athletes; --",
  "'); DELETE FROM users; --",
  "\"; SELECT pg_sleep(10); --",
  "1 UNION SELECT password_hash FROM users",
  "$1",
  "%s%s%s%n",
  "{{7*7}}",
  "${jndi:ldap://127.0.0.1/a}",
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  "..\\..\\..\\windows\\win.ini",
  "/dev/zero",
  "file:///etc/shadow",
  "__proto__",
  "constructor",
  "null",
  "undefined",
  "NaN",
  "-0",
  "1e999",
  "9007199254740993",
  "0x7fffffff",
  " ",
  ""
]

/** Unicode that is legal but unusual: combining marks, bidi controls, zero-width, astral, BOM, NUL, lone surrogates. */
export const unusualTexts = [
  "e\u0301\u0302\u0303",
  "\u202Eevil\u202C",
  "\u200B\u200C\u200D\uFEFF",
  "🏃‍♀️🏋🏽‍♂️⚽",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "Ω≈ç√∫˜µ≤≥÷",
  "田中さんにあげて下さい",
  "مرحبا بالعالم",
  "\u0000",
  "name\u0000with NUL",
  "\uD800",
  "\uDFFF\uD800",
  "\r\n\t\u000B\u000C",
  "\u0085\u2028\u2029"
]

/** Numbers around every boundary an id or a count has. */
export const edgeNumbers = [
  0,
  -1,
  -0,
  1.5,
  2 ** 31,
  2 ** 31 - 1,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 63,
  -(2 ** 53),
  1e308,
  -1e308,
  5e-324
]

/** Raw JSON number tokens that `JSON.stringify` cannot produce. */
export const rawNumberTokens = [
  "1e999",
  "-1e999",
  "123456789012345678901234567890",
  "0.0000000000000000000001",
  "-0",
  "1E2",
  "01"
]

/** A string of `length` copies of a multi-byte character, for limits counted in characters, not bytes. */
const long = (length: number, unit: string) => unit.repeat(length)

export const hugeTexts = fc.constantFrom(200, 201, 10_000, 10_001, 100_000).chain((length) =>
  fc.constantFrom("a", "é", "漢", "🏃").map((unit) => long(length, unit))
)

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...injectionTexts), weight: 3 },
  { arbitrary: fc.constantFrom(...unusualTexts), weight: 3 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: "grapheme", minLength: 150, maxLength: 260 }), weight: 1 },
  { arbitrary: hugeTexts, weight: 1 }
)

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...edgeNumbers),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true })
)

/** Any JSON value of the wrong kind for most fields. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: hostileNumber, weight: 4 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: fc.array(fc.oneof(hostileNumber, hostileString), { maxLength: 5 }), weight: 2 },
  { arbitrary: fc.constant(Array.from({ length: 10_001 }, (_, i) => i + 1)), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 }
)

/** Bodies that are not the JSON they claim to be, or JSON of the wrong shape at the top. */
export const malformedBodies: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    "{",
    "}",
    "{\"name\":",
    "{\"name\": \"x\",}",
    "{'name': 'x'}",
    "{\"name\": \"x\"} trailing",
    "null",
    "[]",
    "\"just a string\"",
    "42",
    "true",
    "\u0000",
    "\uFEFF{}",
    "{\"__proto__\": {\"admin\": true}}",
    "{\"constructor\": {\"prototype\": {\"role\": \"ADMIN\"}}}",
    "{\"a\":1,\"a\":2}",
    `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
    `{"x":${"{\"x\":".repeat(2_000)}1${"}".repeat(2_001)}`
  ),
  fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
  fc.string({ unit: "binary", maxLength: 100 })
)

/** The longest path parameter the server routes (`routerConfig.maxParamLength`); longer ones match no route. */
export const maxPathParameter = 2_400

/** Characters whose lowercase is longer than themselves: a router that lowercases paths shifts the parameters after them. */
const lengtheningLowercase = ["İ", "ẞİ", "Aİb"]

/** A path segment that is not a usable id, percent-encoded where it must be; some longer than any stored value. */
export const hostileIdSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "0",
    "-1",
    "1.5",
    "1e3",
    "0x10",
    "+1",
    " 1",
    "00001",
    "9007199254740992",
    "9007199254740993",
    "99999999999999999999",
    "NaN",
    "Infinity",
    "null",
    "true",
    "[]"
  ),
  fc.constantFrom(...injectionTexts, ...unusualTexts, ...lengtheningLowercase).filter((text) => text !== ""),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }),
  fc.string({ unit: "grapheme", minLength: 150, maxLength: 300 })
).map((value) => encodeURIComponent(wellFormed(value))).filter((segment) => segment.length <= maxPathParameter)
