import type { Actor } from "@club/core"
import { createContextKey } from "@connectrpc/connect"

/** The caller the auth interceptor authenticated; unset means the interceptor did not run. */
export const actorKey = createContextKey<Actor | undefined>(undefined, { description: "authenticated actor" })
