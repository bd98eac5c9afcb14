import { HttpApi, OpenApi } from "effect/http-api"
import {
  ActivitiesGroup,
  AdminsGroup,
  AthletesGroup,
  AuthGroup,
  CoachesGroup,
  HealthGroup,
  RootCoachesGroup,
  ScheduleGroup,
  SessionsGroup,
  UsersGroup
} from "./Groups.ts"
import { Availability } from "./Availability.ts"
import { BodyLimit } from "./BodyLimit.ts"
import { MediaType } from "./MediaType.ts"
import { RequestErrors } from "./RequestErrors.ts"

/**
 * The REST contract of the training-session service. The root coach paths (`/all`, `/:id`, ...)
 * come last, so that every more specific path is tried before them.
 */
export class ClubApi extends HttpApi.make("club")
  .add(HealthGroup, AuthGroup, ActivitiesGroup, AthletesGroup, ScheduleGroup, SessionsGroup, CoachesGroup, UsersGroup, AdminsGroup, RootCoachesGroup)
  .middleware(RequestErrors)
  .middleware(MediaType)
  .middleware(BodyLimit)
  .middleware(Availability)
  .annotateMerge(OpenApi.annotations({
    title: "Club Training Service",
    version: "1.0.0",
    description: "Athletes, coaches, training sessions and their activities, with role-based access."
  }))
{}
