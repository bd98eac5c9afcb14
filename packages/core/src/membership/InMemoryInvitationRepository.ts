import { Effect, Layer, Option } from "effect"
import type { AthleteId, SessionId } from "../shared/Ids.ts"
import type { CalendarDate, LocalDateTime } from "../shared/LocalDateTime.ts"
import type { SessionPosition } from "../sessions/SessionPage.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"
import { traced } from "../shared/traced.ts"
import { InvitationRepository } from "./InvitationRepository.ts"
import { InvitedAthlete, InvitedSession } from "./Invitation.ts"
import { groupCoachIdsOf, groupNamed, memberOn, sessionDay } from "./invitations.ts"

/** `InvitationRepository` on the in-memory store, with the rules of its JSDoc. */
export const InMemoryInvitationRepository = Layer.effect(
  InvitationRepository,
  Effect.gen(function*() {
    const tables = yield* InMemoryStore
    const { memberships, sessions } = tables

    const groupCoachIds = traced("InvitationRepository.groupCoachIds")(function*(groupe: string | null) {
      return groupCoachIdsOf(tables, groupe)
    })

    const invited = traced("InvitationRepository.invited")(
      function*(sessionId: SessionId, today: CalendarDate, after: AthleteId | null, limit: number) {
        const session = sessions.get(sessionId)
        if (session === undefined) return Option.none()
        const group = groupNamed(tables, session.groupe)
        const day = sessionDay(session.creneau, today)
        const members = new Set<AthleteId>()
        if (group !== undefined) {
          for (const m of memberships.values()) {
            if (m.groupId === group.id && m.from <= day && (m.until === null || m.until >= day)) {
              members.add(m.athleteId)
            }
          }
        }
        const ids = [...new Set([...session.athleteIds, ...members])]
          .filter((id) => after === null || id > after)
          .sort((a, b) => a - b)
          .slice(0, limit)
        return Option.some(ids.map((athleteId) =>
          new InvitedAthlete({
            athleteId,
            how: session.athleteIds.has(athleteId) ? "athlete" : "member",
            groupId: members.has(athleteId) ? group!.id : null,
            groupName: members.has(athleteId) ? group!.name : null
          })
        ))
      }
    )

    const sessionsOf = traced("InvitationRepository.sessionsOf")(
      function*(
        athleteId: AthleteId,
        from: LocalDateTime,
        until: LocalDateTime,
        after: SessionPosition | undefined,
        limit: number
      ) {
        const found: Array<InvitedSession> = []
        for (const session of sessions.values()) {
          const creneau = session.creneau
          if (creneau === null || creneau < from || creneau >= until) continue
          if (after !== undefined && (after.creneau === null ? false : creneau < after.creneau)) continue
          if (after !== undefined && creneau === after.creneau && session.id <= after.id) continue
          const own = session.athleteIds.has(athleteId)
          const group = own ? undefined : groupNamed(tables, session.groupe)
          if (
            !own &&
            (group === undefined || !memberOn(tables, group.id, athleteId, creneau.slice(0, 10) as CalendarDate))
          ) {
            continue
          }
          found.push(
            new InvitedSession({
              sessionId: session.id,
              name: session.name,
              creneau,
              groupe: session.groupe,
              coachId: session.coachId,
              how: own ? "athlete" : "member"
            })
          )
        }
        return found
          .sort((a, b) => (a.creneau < b.creneau ? -1 : a.creneau > b.creneau ? 1 : a.sessionId - b.sessionId))
          .slice(0, limit)
      }
    )

    return InvitationRepository.of({ groupCoachIds, invited, sessionsOf })
  })
)
