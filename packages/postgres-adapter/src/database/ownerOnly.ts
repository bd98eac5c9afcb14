import { chmod, lstat, mkdir, readdir } from "node:fs/promises"
import { join } from "node:path"

/** An entry that went away between being listed and being looked at: another process removed or renamed it. */
const isGone = (error: unknown): boolean => (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT"

const restrictEntry = async (path: string): Promise<void> => {
  const info = await lstat(path)
  if (info.isSymbolicLink()) return
  if (info.isDirectory()) {
    if ((info.mode & 0o777) !== 0o700) await chmod(path, 0o700)
    for (const entry of await readdir(path)) {
      // What is gone needs no restricting; anything else that fails is a real failure.
      await restrictEntry(join(path, entry)).catch((error: unknown) => {
        if (!isGone(error)) throw error
      })
    }
  } else if ((info.mode & 0o077) !== 0) {
    await chmod(path, info.mode & 0o700)
  }
}

/**
 * Makes a folder and everything below it readable and writable by its owner only: folders 0700,
 * files without any group or other bit. The embedded database's files hold the password hashes
 * (its WAL too), and PGlite copies its initial cluster with the modes of its image (0666), so the
 * modes are set after it has opened the folder, not only by the process's umask. Links are left
 * alone (never followed), so nothing outside the folder is touched. Other processes may be
 * writing in the folder meanwhile (servers starting together on one DATA_DIR write the token
 * secret through a temporary file): an entry that goes away during the walk is passed over; the
 * folder itself must exist.
 */
export const restrictToOwner = (path: string): Promise<void> => restrictEntry(path)

/** Creates the folder (and its parents) when missing, private to its owner, and makes what it holds private too. */
export const ownerOnlyFolder = async (path: string): Promise<void> => {
  await mkdir(path, { recursive: true, mode: 0o700 })
  await restrictToOwner(path)
}
