import { ScheduleSettings } from "@club/core"
import { Layer } from "effect"
import { AppConfig } from "../AppConfig.ts"

/** CLUB_TIMEZONE and the SCHEDULE_* variables. */
export const ScheduleSettingsFromConfig: Layer.Layer<never, never, AppConfig> = Layer.effect(
  ScheduleSettings,
  AppConfig.useSync((config) => config.schedule)
)
