import * as Net from "node:net"

/** A TCP proxy in front of a server, that a test can take away and bring back on the same port. */
export interface TcpProxy {
  readonly port: number
  /** Stops listening and cuts every open connection, as if the server went away. */
  readonly stop: () => Promise<void>
  readonly restart: () => Promise<void>
}

export const startTcpProxy = async (target: { readonly host: string; readonly port: number }): Promise<TcpProxy> => {
  const sockets = new Set<Net.Socket>()
  const track = (socket: Net.Socket) => {
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
    socket.on("error", () => socket.destroy())
  }
  const server = Net.createServer((client) => {
    track(client)
    const upstream = Net.connect(target.port, target.host)
    track(upstream)
    client.pipe(upstream)
    upstream.pipe(client)
    client.once("close", () => upstream.destroy())
    upstream.once("close", () => client.destroy())
  })
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject)
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject)
        resolve((server.address() as Net.AddressInfo).port)
      })
    })
  const port = await listen(0)
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
    restart: () => listen(port).then(() => undefined)
  }
}
