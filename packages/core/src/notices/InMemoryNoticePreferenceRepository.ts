import { Effect, Layer, Option } from "effect"
import { EntityNotFound } from "../shared/Errors.ts"
import type { UserId } from "../shared/Ids.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"
import { traced } from "../shared/traced.ts"
import type { NoticeKind } from "./noticeRules.ts"
import { defaultNoticePreference, NoticePreference, type NoticePreferenceInput } from "./NoticePreference.ts"
import { NoticePreferenceRepository } from "./NoticePreferenceRepository.ts"

/** `NoticePreferenceRepository` on the in-memory store's `noticePreferences`; each operation is one synchronous step. */
export const InMemoryNoticePreferenceRepository = Layer.effect(
  NoticePreferenceRepository,
  Effect.gen(function*() {
    const { users, noticePreferences } = yield* InMemoryStore

    const current = (userId: UserId) => noticePreferences.get(userId) ?? defaultNoticePreference(userId)

    const find = traced("NoticePreferenceRepository.find")(function*(userId: UserId) {
      return users.get(userId) === undefined ? Option.none() : Option.some(current(userId))
    })

    const set = traced("NoticePreferenceRepository.set")(function*(userId: UserId, input: NoticePreferenceInput) {
      if (users.get(userId) === undefined) return yield* new EntityNotFound({ entity: "User", id: userId })
      const preference = new NoticePreference({ userId, ...input })
      noticePreferences.set(userId, preference)
      return preference
    })

    const mute = traced("NoticePreferenceRepository.mute")(function*(userId: UserId, kind: NoticeKind) {
      if (users.get(userId) === undefined) return Option.none()
      const before = current(userId)
      if (before.mutedKinds.includes(kind)) return Option.some(before)
      const preference = new NoticePreference({ ...before, mutedKinds: [...before.mutedKinds, kind] })
      noticePreferences.set(userId, preference)
      return Option.some(preference)
    })

    return NoticePreferenceRepository.of({ find, set, mute })
  })
)
