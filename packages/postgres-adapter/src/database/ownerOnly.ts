import { chmod, lstat, mkdir, readdir } from "node:fs/promises"
import { join } from "node:path"

/**
 * Makes a folder and everything below it readable and writable by its owner only: folders 0700,
 * files without any group or other bit. The embedded database's files hold the password hashes
 * (its WAL too), and PGlite copies its initial cluster with the modes of its image (0666), so the
 * modes are set after it has opened the folder, not only by the process's umask. Links are left
 * alone (never followed), so nothing outside the folder is touched.
 */
export const restrictToOwner = async (path: string): Promise<void> => {
  const info = await lstat(path)
  if (info.isSymbolicLink()) return
  if (info.isDirectory()) {
    if ((info.mode & 0o777) !== 0o700) await chmod(path, 0o700)
    for (const entry of await readdir(path)) await restrictToOwner(join(path, entry))
  } else if ((info.mode & 0o077) !== 0) {
    await chmod(path, info.mode & 0o700)
  }
}

/** Creates the folder (and its parents) when missing, private to its owner, and makes what it holds private too. */
export const ownerOnlyFolder = async (path: string): Promise<void> => {
  await mkdir(path, { recursive: true, mode: 0o700 })
  await restrictToOwner(path)
}
