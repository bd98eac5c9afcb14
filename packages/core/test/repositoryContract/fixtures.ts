import {
  type ActivityId,
  ActivityWrite,
  type AthleteId,
  type CoachId,
  type LocalDateTime,
  type NewUser,
  type Role,
  SessionCreate,
  type SessionId
} from "@club/core"
import { Redacted } from "effect"

export interface SessionFields {
  readonly id?: SessionId
  readonly name?: string
  readonly creneau?: string | null
  readonly duree?: number | null
  readonly coachId?: CoachId | null
  readonly athleteIds?: ReadonlyArray<AthleteId>
  readonly activiteIds?: ReadonlyArray<ActivityId>
}

export const newSession = (fields: SessionFields = {}) =>
  new SessionCreate({
    id: fields.id ?? null,
    name: fields.name ?? "session",
    isRecurrent: false,
    creneau: (fields.creneau === undefined ? "2026-11-21T18:30:00" : fields.creneau) as LocalDateTime | null,
    duree: fields.duree === undefined ? 90 : fields.duree,
    groupe: "A",
    coachId: fields.coachId ?? null,
    athleteIds: fields.athleteIds ?? [],
    activiteIds: fields.activiteIds ?? []
  })

export const newActivity = (sessionId: SessionId, name = "warm-up", theme: string | null = "cardio") =>
  new ActivityWrite({ name, theme, duree: 15, dataActivite: ["jog", "stretch"], sessionId })

export const newUser = (name: string, role: Role, link: NewUser["link"] = "create"): NewUser => ({
  name,
  email: `${name}@club.test`,
  role,
  passwordHash: Redacted.make(`hash-of-${name}`),
  link
})
