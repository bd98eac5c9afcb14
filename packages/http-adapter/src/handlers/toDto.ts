import type { Activity, Admin, Athlete, Coach, Session, User } from "@club/core"
import type { ActiviteDto, AdminDto, AthleteDto, CoachDto, SessionDto, UserDto } from "@club/contract/rest"

/** Domain records to the seed's wire shapes, quirks included. */

export const toAthleteDto = (a: Athlete): AthleteDto => ({
  id: a.id,
  name: a.name,
  categorie: a.categorie,
  niveau: a.niveau,
  groupes: [],
  sessionIds: [],
  userId: null
})

export const toActiviteDto = (a: Activity): ActiviteDto => ({
  id: null,
  name: a.name,
  theme: a.theme,
  duree: a.duree,
  dataActivite: a.dataActivite,
  sessionId: a.sessionId
})

export const toSessionDto = (s: Session): SessionDto => ({
  id: s.id,
  name: s.name,
  isRecurrent: s.isRecurrent,
  creneau: s.creneau,
  duree: s.duree,
  groupe: s.groupe,
  coachId: s.coachId,
  athleteIds: s.athleteIds,
  activiteIds: s.activiteIds
})

export const toCoachDto = (c: Coach): CoachDto => ({ id: c.id, name: c.name })
export const toAdminDto = (a: Admin): AdminDto => ({ id: a.id, name: a.name })
export const toUserDto = (u: User): UserDto => ({ id: u.id, name: u.name, email: u.email, role: u.role })
/** `{id, name}` of a session or an activity (the summary queries). */
export const toSummary = <Id extends number>(s: { readonly id: Id; readonly name: string | null }) => ({
  id: s.id,
  name: s.name
})
