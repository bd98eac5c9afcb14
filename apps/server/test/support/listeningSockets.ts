import { readdirSync, readFileSync, readlinkSync } from "node:fs"

/** The inodes of the sockets a process holds open, from its file descriptors. */
const socketInodes = (pid: number): Set<string> =>
  new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? ""].filter((inode) =>
          inode !== ""
        )
      } catch {
        return []
      }
    })
  )

const tcpListenState = "0A"
const unixAcceptingFlag = 0x00010000

/**
 * What a process listens on, read from Linux's /proc (no tool needed): its TCP ports in the LISTEN
 * state (IPv4 and IPv6), and the paths of its Unix sockets that accept connections.
 */
export const listeningSockets = (
  pid: number
): { readonly tcpPorts: Array<number>; readonly unixPaths: Array<string> } => {
  const inodes = socketInodes(pid)
  const tcpPorts = ["tcp", "tcp6"].flatMap((table) =>
    readFileSync(`/proc/${pid}/net/${table}`, "utf8").trim().split("\n").slice(1).flatMap((line) => {
      const fields = line.trim().split(/\s+/)
      const [, local, , state] = fields
      return state === tcpListenState && inodes.has(fields[9] ?? "") ? [Number.parseInt(local!.split(":")[1]!, 16)] : []
    })
  )
  const unixPaths = readFileSync(`/proc/${pid}/net/unix`, "utf8").trim().split("\n").slice(1).flatMap((line) => {
    const fields = line.trim().split(/\s+/)
    const flags = Number.parseInt(fields[3] ?? "0", 16)
    const path = fields[7]
    return inodes.has(fields[6] ?? "") && (flags & unixAcceptingFlag) !== 0 && path !== undefined ? [path] : []
  })
  return { tcpPorts: [...new Set(tcpPorts)].sort((a, b) => a - b), unixPaths }
}
