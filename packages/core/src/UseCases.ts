import { Layer } from "effect"
import { ActivityService } from "./records/ActivityService.ts"
import { AthleteService } from "./records/AthleteService.ts"
import { AttendanceService } from "./attendance/AttendanceService.ts"
import { AuthService } from "./auth/AuthService.ts"
import { CoachService } from "./records/CoachService.ts"
import { GuardianService } from "./membership/GuardianService.ts"
import { AuditService } from "./audit/AuditService.ts"
import { GroupService } from "./membership/GroupService.ts"
import { MembershipService } from "./membership/MembershipService.ts"
import { NoticePreferenceService } from "./notices/NoticePreferenceService.ts"
import { PersonDataService } from "./privacy/PersonDataService.ts"
import { PlanningService } from "./planning/PlanningService.ts"
import { ScheduleService } from "./sessions/ScheduleService.ts"
import { SessionService } from "./sessions/SessionService.ts"
import { TaskService } from "./todo/TaskService.ts"
import { UserService } from "./users/UserService.ts"
import { WebhookService } from "./webhooks/WebhookService.ts"
import { RecordServicesLive } from "./records/recordKinds.ts"

/** Every use-case, those of `recordKinds` included; needs the ports (repositories, hasher, signer, login attempts). */
export const UseCasesLive = Layer.mergeAll(
  ActivityService.layer,
  AthleteService.layer,
  AuditService.layer,
  AttendanceService.layer,
  AuthService.layer,
  CoachService.layer,
  GuardianService.layer,
  GroupService.layer,
  MembershipService.layer,
  NoticePreferenceService.layer,
  PersonDataService.layer,
  PlanningService.layer,
  ScheduleService.layer,
  SessionService.layer,
  TaskService.layer,
  UserService.layer,
  WebhookService.layer,
  RecordServicesLive
)
