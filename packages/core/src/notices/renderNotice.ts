import { IntlMessageFormat } from "intl-messageformat"
import type { NoticeKind } from "./noticeRules.ts"

/** The languages notices are written in; a user's own preference, else the club's (CLUB_LANGUAGE). */
export const noticeLanguages = ["fr", "en"] as const
export type NoticeLanguage = (typeof noticeLanguages)[number]

export const isNoticeLanguage = (value: string): value is NoticeLanguage =>
  (noticeLanguages as ReadonlyArray<string>).includes(value)

/** What a notice tells, as read from the store when it is sent (names may have changed since the event). */
export interface NoticeFacts {
  readonly kind: NoticeKind
  readonly language: NoticeLanguage
  /** The club's IANA zone (CLUB_TIMEZONE): every time is shown there, whatever the reader's machine. */
  readonly timeZone: string
  readonly recipientName: string
  readonly athleteName: string
  /** true when the recipient is a guardian of the athlete, not the athlete. */
  readonly forGuardian: boolean
  /** The session's title, or the series' for a series' invitation. */
  readonly sessionTitle: string
  /** The session's start; a series' first occurrence for its invitation. */
  readonly startsAt: Date
  /** An invitation to a whole series (`seriesCreated`), not to one session. */
  readonly forSeries?: boolean
  /** `sessionChanged`: the start before the change, when it moved (its event's `previousCreneau`). */
  readonly previousStartsAt?: Date
  /** `reminder`: when replies close (the session's cut-off). */
  readonly repliesCloseAt?: Date
  /** Where the session is seen in the club's app; shown as a link. */
  readonly link: string
}

export interface RenderedNotice {
  readonly subject: string
  readonly text: string
  readonly html: string
}

// ICU MessageFormat: one string per language and part; `who` selects the athlete's own wording or a
// guardian's. Values are inserted by the library, never concatenated, so a translator moves them freely.
const messages: Record<NoticeKind, Record<NoticeLanguage, { subject: string; body: string }>> = {
  invitation: {
    fr: {
      subject: "Invitation : {title}, {start}",
      body: "Bonjour {recipient},\n\n{who, select, guardian {{athlete} est invité(e)} other {Vous êtes invité(e)}} "
        + "{series, select, yes {à la série « {title} », à partir du {start}} other {à la séance « {title} » du {start}}}"
        + ". Merci de répondre dans l'application."
    },
    en: {
      subject: "Invitation: {title}, {start}",
      body: "Hello {recipient},\n\n{who, select, guardian {{athlete} is invited} other {You are invited}} "
        + "{series, select, yes {to the series \"{title}\", starting on {start}} other {to the session \"{title}\" on {start}}}"
        + ". Please reply in the app."
    }
  },
  reminder: {
    fr: {
      subject: "Réponse attendue : {title}, {start}",
      body:
        "Bonjour {recipient},\n\n{who, select, guardian {{athlete} n'a pas répondu} other {Vous n'avez pas répondu}} "
        + "à l'invitation à la séance « {title} » du {start}. Les réponses ferment le {closes}."
    },
    en: {
      subject: "Reply awaited: {title}, {start}",
      body: "Hello {recipient},\n\n{who, select, guardian {{athlete} has not replied} other {You have not replied}} "
        + "to the invitation to the session \"{title}\" on {start}. Replies close on {closes}."
    }
  },
  sessionChanged: {
    fr: {
      subject: "Séance modifiée : {title}, {start}",
      body: "Bonjour {recipient},\n\nLa séance « {title} » "
        + "{moved, select, yes {du {previous} est déplacée au {start}} other {du {start} change de durée}}"
        + "{who, select, guardian { (invitation de {athlete})} other {}}."
    },
    en: {
      subject: "Session changed: {title}, {start}",
      body: "Hello {recipient},\n\nThe session \"{title}\" "
        + "{moved, select, yes {on {previous} moves to {start}} other {on {start} changes its length}}"
        + "{who, select, guardian { ({athlete}'s invitation)} other {}}."
    }
  },
  promoted: {
    fr: {
      subject: "{who, select, guardian {{athlete} a une place} other {Vous avez une place}} : {title}, {start}",
      body: "Bonjour {recipient},\n\n{who, select, guardian {{athlete} passe} other {Vous passez}} de la liste "
        + "d'attente à la séance « {title} » du {start}."
    },
    en: {
      subject: "{who, select, guardian {{athlete} has a place} other {You have a place}}: {title}, {start}",
      body: "Hello {recipient},\n\n{who, select, guardian {{athlete} moves} other {You move}} from the waiting "
        + "list to the session \"{title}\" on {start}."
    }
  },
  sessionCancelled: {
    fr: {
      subject: "Séance annulée : {title}, {start}",
      body: "Bonjour {recipient},\n\nLa séance « {title} » du {start} est annulée"
        + "{who, select, guardian { (invitation de {athlete})} other {}}."
    },
    en: {
      subject: "Session cancelled: {title}, {start}",
      body: "Hello {recipient},\n\nThe session \"{title}\" on {start} is cancelled"
        + "{who, select, guardian { ({athlete}'s invitation)} other {}}."
    }
  }
}

const linkLabel: Record<NoticeLanguage, string> = { fr: "Voir la séance", en: "See the session" }
// French typography puts a space before the colon; English does not.
const linkLead: Record<NoticeLanguage, string> = { fr: "Voir la séance : ", en: "See the session: " }

/** The values a message selects on, never shown: not escaped. */
const selectors = new Set(["who", "series", "moved"])

const escapeHtml = (value: string): string =>
  value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("\"", "&quot;")
    .replaceAll("'", "&#39;")

const format = (pattern: string, language: NoticeLanguage, values: Record<string, string>): string =>
  String(new IntlMessageFormat(pattern, language).format(values))

/**
 * Subject, text and HTML of one notice. The HTML is the text's own wording with every inserted value
 * escaped before formatting (a name like `<b>` stays text), and the link's URL escaped as an attribute.
 */
export const renderNotice = (facts: NoticeFacts): RenderedNotice => {
  const dateTime = new Intl.DateTimeFormat(facts.language, {
    dateStyle: "full",
    timeStyle: "short",
    timeZone: facts.timeZone
  })
  const shown = (at: Date | undefined) => at === undefined ? "" : dateTime.format(at)
  const moved = facts.previousStartsAt !== undefined && facts.previousStartsAt.getTime() !== facts.startsAt.getTime()
  const values: Record<string, string> = {
    recipient: facts.recipientName,
    athlete: facts.athleteName,
    title: facts.sessionTitle,
    start: shown(facts.startsAt),
    previous: shown(facts.previousStartsAt),
    closes: shown(facts.repliesCloseAt),
    who: facts.forGuardian ? "guardian" : "self",
    series: facts.forSeries === true ? "yes" : "no",
    moved: moved ? "yes" : "no"
  }
  const escaped = Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, selectors.has(key) ? value : escapeHtml(value)])
  )
  const { body, subject } = messages[facts.kind][facts.language]
  const text = `${format(body, facts.language, values)}\n\n${linkLead[facts.language]}${facts.link}\n`
  const paragraphs = format(body, facts.language, escaped).split("\n\n").map((p) => `<p>${p}</p>`).join("\n")
  const html = `<!doctype html>\n<html lang="${facts.language}"><body>\n${paragraphs}\n<p><a href="${
    escapeHtml(facts.link)
  }">${escapeHtml(linkLabel[facts.language])}</a></p>\n</body></html>\n`
  return { subject: format(subject, facts.language, values), text, html }
}
