// Generated from the contract's OpenAPI document by scripts/generate-operations.mjs: do not edit.
// test/operations.test.ts checks that it is up to date.
import type { Operation } from "./Operation.ts"

export const operations: Readonly<Record<string, Readonly<Record<string, Operation>>>> = {
  "health": {
    "live": {"m":"GET","p":"/health/live","r":0,"a":0,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "ready": {"m":"GET","p":"/health/ready","r":0,"a":0,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]}
  },
  "auth": {
    "me": {"m":"GET","p":"/auth/me","r":0,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "login": {"m":"POST","p":"/auth/login","r":1,"a":0,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[429,"TooManyRequests","p"],[503,"Unavailable","p"]]}
  },
  "activities": {
    "create": {"m":"POST","p":"/activite/create","r":1,"a":1,"s":[[201,"l"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[500,"ActivityFailed","t","Error: "],[503,"Unavailable","p"]]},
    "delete": {"m":"DELETE","p":"/activite/delete/:id","r":1,"a":1,"s":[[200,"t"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[500,"ActivityFailed","t","Error: "],[503,"Unavailable","p"]]},
    "update": {"m":"POST","p":"/activite/update/:id","r":1,"a":1,"s":[[200,"t"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[500,"ActivityFailed","t","Error: "],[503,"Unavailable","p"]]},
    "all": {"m":"GET","p":"/activite/all","r":0,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFoundEmpty","n"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "byTheme": {"m":"GET","p":"/activite/theme/:theme","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFoundEmpty","n"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "get": {"m":"GET","p":"/activite/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFoundEmpty","n"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]}
  },
  "athletes": {
    "create": {"m":"POST","p":"/athletes/create","r":1,"a":1,"s":[[201,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "all": {"m":"POST","p":"/athletes/all","r":0,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "get": {"m":"GET","p":"/athletes/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFoundEmpty","n"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "update": {"m":"PUT","p":"/athletes/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[204,"AthleteUpdateFailed","n"],[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "delete": {"m":"DELETE","p":"/athletes/:id","r":1,"a":1,"s":[[204,"n"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFoundEmpty","n"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]}
  },
  "schedule": {
    "sessionsOfAthlete": {"m":"GET","p":"/athletes/athlete/:id/session","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "allSessions": {"m":"GET","p":"/athletes/athletes/session","r":0,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "activitiesOfSession": {"m":"GET","p":"/athletes/athletes/session/:id/activities","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "sessionsAfter": {"m":"GET","p":"/athletes/athletes/:id/session/after/:date","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "sessionsBetween": {"m":"GET","p":"/athletes/athletes/:id/session/between/:startDate/:endDate","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]}
  },
  "sessions": {
    "create": {"m":"POST","p":"/session/create","r":1,"a":1,"s":[[201,"j"]],"e":[[400,"SessionCreateFailed","t"],[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "all": {"m":"GET","p":"/session/all","r":0,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "get": {"m":"GET","p":"/session/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"SessionNotFoundText","t"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "delete": {"m":"DELETE","p":"/session/delete/:id","r":1,"a":1,"s":[[200,"t"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"SessionNotFoundText","t"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "update": {"m":"PUT","p":"/session/update/:id","r":1,"a":1,"s":[[204,"n"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]}
  },
  "series": {
    "createSeries": {"m":"POST","p":"/planning/series","r":1,"a":1,"s":[[201,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "getSeries": {"m":"GET","p":"/planning/series/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "conflicts": {"m":"GET","p":"/planning/conflicts","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "cancelSeries": {"m":"DELETE","p":"/planning/series/:id","r":1,"a":1,"s":[[204,"n"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "cancelOccurrence": {"m":"DELETE","p":"/planning/series/:id/occurrences/:sessionId","r":1,"a":1,"s":[[204,"n"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "changeSeries": {"m":"PATCH","p":"/planning/series/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "changeOccurrence": {"m":"PATCH","p":"/planning/series/:id/occurrences/:sessionId","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]}
  },
  "coaches": {
    "create": {"m":"POST","p":"/coaches/create","r":1,"a":1,"s":[[201,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "all": {"m":"GET","p":"/coaches/all","r":0,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "get": {"m":"GET","p":"/coaches/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "update": {"m":"PUT","p":"/coaches/update/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "delete": {"m":"DELETE","p":"/coaches/delete/:id","r":1,"a":1,"s":[[204,"n"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]}
  },
  "users": {
    "create": {"m":"POST","p":"/users/create","r":1,"a":1,"s":[[201,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "all": {"m":"GET","p":"/users/all","r":0,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "get": {"m":"GET","p":"/users/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "update": {"m":"PUT","p":"/users/update/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "delete": {"m":"DELETE","p":"/users/delete/:id","r":1,"a":1,"s":[[204,"n"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]}
  },
  "admins": {
    "create": {"m":"POST","p":"/admins/create","r":1,"a":1,"s":[[201,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "all": {"m":"GET","p":"/admins/all","r":0,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "get": {"m":"GET","p":"/admins/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "update": {"m":"PUT","p":"/admins/update/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "delete": {"m":"DELETE","p":"/admins/delete/:id","r":1,"a":1,"s":[[204,"n"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]}
  },
  "planning": {
    "sessions": {"m":"GET","p":"/planning/sessions","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "createSession": {"m":"POST","p":"/planning/sessions","r":1,"a":1,"s":[[201,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "changeSession": {"m":"PATCH","p":"/planning/sessions/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]}
  },
  "feedToken": {
    "rotate": {"m":"POST","p":"/planning/feed-token","r":0,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "revoke": {"m":"DELETE","p":"/planning/feed-token","r":0,"a":1,"s":[[204,"n"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]}
  },
  "feeds": {
    "athlete": {"m":"GET","p":"/planning/feeds/:token/athlete/:file","r":1,"a":0,"s":[[200,"t"],[304,"n"]],"e":[[400,"InvalidRequest","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "coach": {"m":"GET","p":"/planning/feeds/:token/coach/:file","r":1,"a":0,"s":[[200,"t"],[304,"n"]],"e":[[400,"InvalidRequest","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "group": {"m":"GET","p":"/planning/feeds/:token/group/:file","r":1,"a":0,"s":[[200,"t"],[304,"n"]],"e":[[400,"InvalidRequest","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "guardian": {"m":"GET","p":"/planning/feeds/:token/guardian.ics","r":1,"a":0,"s":[[200,"t"],[304,"n"]],"e":[[400,"InvalidRequest","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]}
  },
  "attendance": {
    "configureReplies": {"m":"PUT","p":"/attendance/sessions/:id/settings","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "sessionReplies": {"m":"GET","p":"/attendance/sessions/:id/replies","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "invited": {"m":"GET","p":"/attendance/sessions/:id/invited","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "athleteSessions": {"m":"GET","p":"/attendance/athletes/:id/sessions","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "reply": {"m":"PUT","p":"/attendance/athletes/:id/replies/:sessionId","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "recordPresence": {"m":"PUT","p":"/attendance/sessions/:id/presence","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "sessionPresence": {"m":"GET","p":"/attendance/sessions/:id/presence","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "figures": {"m":"GET","p":"/attendance/figures","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "athleteFigures": {"m":"GET","p":"/attendance/athletes/:id/figures","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "exportSeason": {"m":"GET","p":"/attendance/export","r":1,"a":1,"s":[[200,"t"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]}
  },
  "webhooks": {
    "registerWebhook": {"m":"POST","p":"/attendance/webhooks","r":1,"a":1,"s":[[201,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "webhooks": {"m":"GET","p":"/attendance/webhooks","r":0,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "removeWebhook": {"m":"DELETE","p":"/attendance/webhooks/:id","r":1,"a":1,"s":[[204,"n"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "deliveries": {"m":"GET","p":"/attendance/webhooks/:id/deliveries","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "replay": {"m":"POST","p":"/attendance/webhooks/:id/replay","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]}
  },
  "guardians": {
    "linkGuardian": {"m":"PUT","p":"/guardians/:id/athletes/:athleteId","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "unlinkGuardian": {"m":"DELETE","p":"/guardians/:id/athletes/:athleteId","r":1,"a":1,"s":[[204,"n"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "guardedAthletes": {"m":"GET","p":"/guardians/:id/athletes","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "athleteGuardians": {"m":"GET","p":"/guardians","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]}
  },
  "groups": {
    "createGroup": {"m":"POST","p":"/groups","r":1,"a":1,"s":[[201,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "groups": {"m":"GET","p":"/groups","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "group": {"m":"GET","p":"/groups/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "updateGroup": {"m":"PATCH","p":"/groups/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "deleteGroup": {"m":"DELETE","p":"/groups/:id","r":1,"a":1,"s":[[204,"n"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "startMembership": {"m":"POST","p":"/groups/:id/memberships","r":1,"a":1,"s":[[201,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "groupMemberships": {"m":"GET","p":"/groups/:id/memberships","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "groupMembers": {"m":"GET","p":"/groups/:id/members","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "endMembership": {"m":"POST","p":"/memberships/:id/end","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "athleteMemberships": {"m":"GET","p":"/memberships","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]}
  },
  "noticePreferences": {
    "mine": {"m":"GET","p":"/notices/preferences","r":0,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "setMine": {"m":"PUT","p":"/notices/preferences","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "ofUser": {"m":"GET","p":"/notices/preferences/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "setForUser": {"m":"PUT","p":"/notices/preferences/:id","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]}
  },
  "unsubscribe": {
    "confirm": {"m":"GET","p":"/notices/unsubscribe","r":1,"a":0,"s":[[200,"t"]],"e":[[400,"InvalidRequest","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "unsubscribe": {"m":"POST","p":"/notices/unsubscribe","r":1,"a":0,"s":[[200,"t"]],"e":[[400,"InvalidRequest","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]}
  },
  "people": {
    "export": {"m":"GET","p":"/people/:id/export","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "erase": {"m":"POST","p":"/people/:id/erase","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]},
    "exportAthlete": {"m":"GET","p":"/people/athletes/:id/export","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]},
    "eraseAthlete": {"m":"POST","p":"/people/athletes/:id/erase","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[404,"NotFound","p"],[409,"Conflict","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[422,"UnprocessableContent","p"],[503,"Unavailable","p"]]}
  },
  "audit": {
    "audit": {"m":"GET","p":"/audit","r":1,"a":1,"s":[[200,"j"]],"e":[[400,"InvalidRequest","p"],[401,"Unauthorized","p"],[403,"Forbidden","p"],[413,"ContentTooLarge","p"],[415,"UnsupportedMediaType","p"],[503,"Unavailable","p"]]}
  }
}
