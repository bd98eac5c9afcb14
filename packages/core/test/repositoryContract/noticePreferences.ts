import {
  defaultNoticePreference,
  EntityNotFound,
  NoticePreference,
  NoticePreferenceInput,
  NoticePreferenceRepository,
  type UserId,
  UserRepository
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ContractSuite } from "./Contract.ts"
import { newUser } from "./fixtures.ts"

const missing = 9_000_000 as UserId

const user = (name: string) => UserRepository.use((users) => users.create(newUser(name, "ATHLETE")))

export const noticePreferenceRepositoryContract: ContractSuite = {
  title: "NoticePreferenceRepository",
  tests: (it) => {
    it.effect("a user who never chose has the defaults; a set replaces the whole choice and is read back", () =>
      Effect.gen(function*() {
        const preferences = yield* NoticePreferenceRepository
        const chooser = yield* user("prefs-chooser")
        const other = yield* user("prefs-other")
        expect(yield* preferences.find(chooser.id)).toEqual(Option.some(defaultNoticePreference(chooser.id)))

        const chosen = yield* preferences.set(
          chooser.id,
          new NoticePreferenceInput({ language: "en", emailEnabled: false, mutedKinds: ["reminder", "promoted"] })
        )
        const expected = new NoticePreference({
          userId: chooser.id,
          language: "en",
          emailEnabled: false,
          mutedKinds: ["reminder", "promoted"]
        })
        expect(chosen).toEqual(expected)
        expect(yield* preferences.find(chooser.id)).toEqual(Option.some(expected))
        // Another user's stays untouched.
        expect(yield* preferences.find(other.id)).toEqual(Option.some(defaultNoticePreference(other.id)))

        const back = new NoticePreferenceInput({ language: null, emailEnabled: true, mutedKinds: [] })
        yield* preferences.set(chooser.id, back)
        expect(yield* preferences.find(chooser.id)).toEqual(Option.some(defaultNoticePreference(chooser.id)))
      }))

    it.effect("mute adds one kind, keeps the rest of the choice, and muting again changes nothing", () =>
      Effect.gen(function*() {
        const preferences = yield* NoticePreferenceRepository
        const fresh = yield* user("prefs-mute-fresh")
        expect(yield* preferences.mute(fresh.id, "reminder")).toEqual(
          Option.some(new NoticePreference({ ...defaultNoticePreference(fresh.id), mutedKinds: ["reminder"] }))
        )
        const chooser = yield* user("prefs-mute-chooser")
        yield* preferences.set(
          chooser.id,
          new NoticePreferenceInput({ language: "fr", emailEnabled: true, mutedKinds: ["invitation"] })
        )
        const expected = new NoticePreference({
          userId: chooser.id,
          language: "fr",
          emailEnabled: true,
          mutedKinds: ["invitation", "sessionCancelled"]
        })
        expect(yield* preferences.mute(chooser.id, "sessionCancelled")).toEqual(Option.some(expected))
        expect(yield* preferences.mute(chooser.id, "sessionCancelled")).toEqual(Option.some(expected))
        expect(yield* preferences.mute(chooser.id, "invitation")).toEqual(Option.some(expected))
        expect(yield* preferences.find(chooser.id)).toEqual(Option.some(expected))
      }))

    it.effect("two mutes at once of different kinds both hold", () =>
      Effect.gen(function*() {
        const preferences = yield* NoticePreferenceRepository
        const racer = yield* user("prefs-mute-race")
        yield* Effect.all([preferences.mute(racer.id, "reminder"), preferences.mute(racer.id, "invitation")], {
          concurrency: "unbounded"
        })
        const found = yield* preferences.find(racer.id)
        expect(Option.map(found, (p) => [...p.mutedKinds].sort())).toEqual(Option.some(["invitation", "reminder"]))
      }))

    it.effect("an unknown user: find and mute answer none, set is not found and writes nothing", () =>
      Effect.gen(function*() {
        const preferences = yield* NoticePreferenceRepository
        expect(yield* preferences.find(missing)).toEqual(Option.none())
        expect(yield* preferences.mute(missing, "promoted")).toEqual(Option.none())
        expect(
          yield* Effect.flip(
            preferences.set(missing, new NoticePreferenceInput({ language: "en", emailEnabled: true, mutedKinds: [] }))
          )
        ).toEqual(new EntityNotFound({ entity: "User", id: missing }))
        expect(yield* preferences.find(missing)).toEqual(Option.none())
      }))

    it.effect("deleting a user removes its preferences", () =>
      Effect.gen(function*() {
        const preferences = yield* NoticePreferenceRepository
        const leaver = yield* user("prefs-leaver")
        yield* preferences.set(
          leaver.id,
          new NoticePreferenceInput({ language: "en", emailEnabled: false, mutedKinds: ["promoted"] })
        )
        yield* UserRepository.use((users) => users.delete(leaver.id))
        expect(yield* preferences.find(leaver.id)).toEqual(Option.none())
      }))
  }
}
