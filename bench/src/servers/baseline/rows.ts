/** The driver reads bigint columns as BigInt; the wire shapes carry plain numbers. */

type Row = Record<string, unknown>

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value))
const nums = (values: unknown): Array<number> => (values as Array<unknown>).map(Number)

export const sessionDto = (row: Row) => ({
  id: Number(row["id"]),
  name: row["name"],
  isRecurrent: row["isRecurrent"],
  creneau: row["creneau"],
  duree: num(row["duree"]),
  groupe: row["groupe"],
  coachId: num(row["coachId"]),
  athleteIds: nums(row["athleteIds"]),
  activiteIds: nums(row["activiteIds"])
})

/** An athlete's session and how it is invited (issue 41); the ids were read as float8, so numbers already. */
export const invitedSession = (row: Row) => ({
  sessionId: Number(row["sessionId"]),
  name: row["name"],
  creneau: row["creneau"] as string,
  groupe: row["groupe"],
  coachId: num(row["coachId"]),
  how: row["how"]
})

export const summary = (row: Row) => ({ id: Number(row["id"]), name: row["name"] })

/** The seed's AthleteDTO: the athlete endpoints fill only the athlete's own fields. */
export const athleteDto = (row: Row) => ({
  id: Number(row["id"]),
  name: row["name"],
  categorie: row["categorie"],
  niveau: row["niveau"],
  groupes: [],
  sessionIds: [],
  userId: null
})

/** TodoService's TaskResponse in proto3 JSON, every field emitted. */
export const taskResponse = (row: Row) => ({
  id: row["id"],
  title: row["title"],
  description: row["description"],
  success: true
})

export const userDto = (row: Row) => ({
  id: Number(row["id"]),
  name: row["name"],
  email: row["email"],
  role: row["role"]
})
