import { Migrator } from "effect/sql"
import createPeople from "./0001_create_people.ts"
import createUsers from "./0002_create_users.ts"
import createSessions from "./0003_create_sessions.ts"
import createActivities from "./0004_create_activities.ts"
import createTasks from "./0005_create_tasks.ts"
import createLoginFailures from "./0006_create_login_failures.ts"
import createLoginThrottle from "./0007_create_login_throttle.ts"
import boundIdentitySequences from "./0008_bound_identity_sequences.ts"
import createIdempotencyKeys from "./0009_create_idempotency_keys.ts"
import createSeries from "./0010_create_series.ts"
import createBookings from "./0011_create_bookings.ts"
import planningAndFeeds from "./0012_planning_and_feeds.ts"
import seriesChanges from "./0013_series_changes.ts"
import seriesCancellations from "./0014_series_cancellations.ts"
import createReplies from "./0015_create_replies.ts"
import createPresence from "./0016_create_presence.ts"
import createOutbox from "./0017_create_outbox.ts"
import refillFreedPlaces from "./0018_refill_freed_places.ts"
import sessionsLocalSpanIndex from "./0021_sessions_local_span_index.ts"
import receiversAndFeedTokens from "./0022_receivers_and_feed_tokens.ts"
import bookingsAsInstants from "./0023_bookings_as_instants.ts"
import groupsAndMemberships from "./0024_groups_and_memberships.ts"
import membershipEvents from "./0025_membership_events.ts"
import repliesOfInvitedAthletes from "./0027_replies_of_invited_athletes.ts"
import domainEvents from "./0028_domain_events.ts"
import createNotices from "./0029_create_notices.ts"
import createNoticePreferences from "./0030_create_notice_preferences.ts"
import retentionIndexes from "./0031_retention_indexes.ts"
import createAuditEntries from "./0032_create_audit_entries.ts"
import personErasures from "./0033_person_erasures.ts"
import refillLocksTheWebhooks from "./0034_refill_locks_the_webhooks.ts"
import athleteErasures from "./0035_athlete_erasures.ts"
import auditByStatement from "./0036_audit_by_statement.ts"
import auditRowActors from "./0037_audit_row_actors.ts"
import sessionsBounded from "./0038_sessions_bounded.ts"
import cheaperAuditEntries from "./0039_cheaper_audit_entries.ts"
import activitiesBounded from "./0040_activities_bounded.ts"
import auditRowActorsByTable from "./0041_audit_row_actors_by_table.ts"
import auditRecordIdIndex from "./0042_audit_record_id_index.ts"
import cheaperAuditUpdates from "./0043_cheaper_audit_updates.ts"

/**
 * Every migration, keyed `<id>_<name>`. Imported statically rather than read from disk, so the
 * bundled build carries them. Append new ones; never edit one that has shipped.
 */
export const migrations = Migrator.fromRecord({
  "0001_create_people": createPeople,
  "0002_create_users": createUsers,
  "0003_create_sessions": createSessions,
  "0004_create_activities": createActivities,
  "0005_create_tasks": createTasks,
  "0006_create_login_failures": createLoginFailures,
  "0007_create_login_throttle": createLoginThrottle,
  "0008_bound_identity_sequences": boundIdentitySequences,
  "0009_create_idempotency_keys": createIdempotencyKeys,
  "0010_create_series": createSeries,
  "0011_create_bookings": createBookings,
  "0012_planning_and_feeds": planningAndFeeds,
  "0013_series_changes": seriesChanges,
  "0014_series_cancellations": seriesCancellations,
  "0015_create_replies": createReplies,
  "0016_create_presence": createPresence,
  "0017_create_outbox": createOutbox,
  "0018_refill_freed_places": refillFreedPlaces,
  "0021_sessions_local_span_index": sessionsLocalSpanIndex,
  "0022_receivers_and_feed_tokens": receiversAndFeedTokens,
  "0023_bookings_as_instants": bookingsAsInstants,
  "0024_groups_and_memberships": groupsAndMemberships,
  "0025_membership_events": membershipEvents,
  "0027_replies_of_invited_athletes": repliesOfInvitedAthletes,
  "0028_domain_events": domainEvents,
  "0029_create_notices": createNotices,
  "0030_create_notice_preferences": createNoticePreferences,
  "0031_retention_indexes": retentionIndexes,
  "0032_create_audit_entries": createAuditEntries,
  "0033_person_erasures": personErasures,
  "0034_refill_locks_the_webhooks": refillLocksTheWebhooks,
  "0035_athlete_erasures": athleteErasures,
  "0036_audit_by_statement": auditByStatement,
  "0037_audit_row_actors": auditRowActors,
  "0038_sessions_bounded": sessionsBounded,
  "0039_cheaper_audit_entries": cheaperAuditEntries,
  "0040_activities_bounded": activitiesBounded,
  "0041_audit_row_actors_by_table": auditRowActorsByTable,
  "0042_audit_record_id_index": auditRecordIdIndex,
  "0043_cheaper_audit_updates": cheaperAuditUpdates
})
