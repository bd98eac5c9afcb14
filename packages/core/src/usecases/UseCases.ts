import { Layer } from "effect"
import { ActivityService } from "./ActivityService.ts"
import { AthleteService } from "./AthleteService.ts"
import { AttendanceService } from "./AttendanceService.ts"
import { AuthService } from "./AuthService.ts"
import { CoachService } from "./CoachService.ts"
import { PlanningService } from "./PlanningService.ts"
import { ScheduleService } from "./ScheduleService.ts"
import { SessionService } from "./SessionService.ts"
import { TaskService } from "./TaskService.ts"
import { UserService } from "./UserService.ts"
import { WebhookService } from "./WebhookService.ts"
import { RecordServicesLive } from "./recordKinds.ts"

/** Every use-case, those of `recordKinds` included; needs the ports (repositories, hasher, signer, login attempts). */
export const UseCasesLive = Layer.mergeAll(
  ActivityService.layer,
  AthleteService.layer,
  AttendanceService.layer,
  AuthService.layer,
  CoachService.layer,
  PlanningService.layer,
  ScheduleService.layer,
  SessionService.layer,
  TaskService.layer,
  UserService.layer,
  WebhookService.layer,
  RecordServicesLive
)
