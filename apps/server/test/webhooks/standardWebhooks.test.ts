import { DeliveredEvent } from "@club/core"
import { eventually } from "@club/test-support"
import { createAthlete, createSession } from "@club/test-support/rest"
import { Schema } from "effect"
import { Webhook, WebhookVerificationError } from "standardwebhooks"
import { expect, it } from "vitest"
import { onEveryDatabase } from "../rest/support/club.ts"
import { signedWith, receiverOfTheFile, quickDeliveries } from "./Receiver.ts"

/**
 * Issue 42 item 6: a receiver verifies a delivery with the Standard Webhooks library itself, not
 * with code of ours. Two secrets: one registered as before (a plain string, which a receiver gives
 * the library as `whsec_` + its base64, decision 0273) and one registered in the specification's
 * own `whsec_<base64>` form.
 */
const plainSecret = "receiver-secret-0123456789"
const whsecSecret = `whsec_${Buffer.from("a key of thirty-two bytes, random").toString("base64")}`
const receiver = receiverOfTheFile()

await onEveryDatabase("Standard Webhooks deliveries", (club) => {
  for (
    const [name, secret, librarySecret] of [
      ["a secret registered before (plain)", plainSecret, `whsec_${Buffer.from(plainSecret).toString("base64")}`],
      ["a whsec_ secret", whsecSecret, whsecSecret]
    ] as const
  ) {
    it(`${name}: the library verifies a delivery; a tampered body or an old timestamp is refused`, async () => {
      receiver().reset("ok")
      const athlete = await createAthlete(club())
      const session = await createSession(club(), {
        creneau: "2099-06-01T18:00:00",
        coachId: club().coachId,
        athleteIds: [athlete.id]
      })
      // Registered after the session's create: the delivery looked at is the reply.
      const created = await club().admin.post("/attendance/webhooks", { url: receiver().url, secret })
      expect(created.status, created.text).toBe(201)
      const replied = await club().coach.put(`/attendance/athletes/${athlete.id}/replies/${session.id}`, {
        answer: "yes"
      })
      expect(replied.status, replied.text).toBeLessThan(300)
      expect(
        await eventually(async () => receiver().received.some((r) => r.event.sessionId === session.id), 20_000)
      ).toBe(true)
      const delivery = receiver().received.find((r) => r.event.sessionId === session.id)!
      // The body is one of the catalogue's (docs/events.md), as its Schema in core says.
      expect(Schema.decodeUnknownSync(DeliveredEvent)(JSON.parse(delivery.body))).toMatchObject({
        type: "reply",
        sessionId: session.id,
        data: { athleteId: athlete.id, answer: "yes", state: "confirmed" }
      })
      expect(delivery.headers["webhook-id"]).toBe(String(delivery.event.id))
      expect(Number(delivery.headers["webhook-timestamp"])).toBe(delivery.timestamp)

      const verifier = new Webhook(librarySecret)
      expect(verifier.verify(delivery.body, delivery.headers)).toEqual(JSON.parse(delivery.body))
      expect(() => verifier.verify(delivery.body.replace("\"yes\"", "\"no\""), delivery.headers)).toThrow(
        WebhookVerificationError
      )
      expect(() => verifier.verify(delivery.body, { ...delivery.headers, "webhook-timestamp": "1000000000" }))
        .toThrow(WebhookVerificationError)
      // A delivery signed an hour ago, whatever its signature, is too old for the library (its tolerance is 5 minutes).
      const old = String(Math.floor(Date.now() / 1000) - 3600)
      const resigned = new Webhook(librarySecret).sign(
        delivery.headers["webhook-id"]!,
        new Date(Number(old) * 1000),
        delivery.body
      )
      expect(() =>
        verifier.verify(delivery.body, { ...delivery.headers, "webhook-timestamp": old, "webhook-signature": resigned })
      ).toThrow(WebhookVerificationError)
      // The legacy header still comes, for one version (docs/events.md).
      expect(signedWith(delivery, secret)).toBe(true)
      await club().admin.delete(`/attendance/webhooks/${(created.body as { id: number }).id}`)
    })
  }
}, { env: quickDeliveries })
