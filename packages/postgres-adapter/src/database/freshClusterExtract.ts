// A process of its own that extracts the fresh cluster's archive into a folder, started by
// `extractFreshCluster` (freshCluster.ts): the buffers of a 40 MB extraction, freed, would stay in
// the server's malloc heap for its whole life; a process that ends gives them all back.
// Built to dist/freshClusterExtract.js, and run from source by tests.
import { extract } from "tar"

const [archive, folder] = process.argv.slice(2)
if (archive === undefined || folder === undefined) throw new Error("usage: freshClusterExtract <archive> <folder>")
await extract({ file: archive, cwd: folder })
