// Build step, after tsup: the archive of a fresh PGlite cluster that a new embedded database starts
// from (src/database/freshCluster.ts says why). It is build output, made from the installed PGlite,
// never in git.
import { writeFile } from "node:fs/promises"
import { PGlite } from "@electric-sql/pglite"
import { freshClusterFile } from "../src/database/freshCluster.ts"

const db = await PGlite.create("memory://")
const archive = await db.dumpDataDir("gzip")
await db.close()
await writeFile(freshClusterFile, Buffer.from(await archive.arrayBuffer()))
