import type { NodeRequest, NodeRequestHandler, NodeResponse } from "./NodeHandler.ts"

/**
 * The Effect app's request handler, which exists only once the app is served: the listener
 * accepts connections before that, and the requests that arrive meanwhile wait here.
 */
export class AppSlot {
  private app: NodeRequestHandler | undefined
  private readonly early: Array<readonly [NodeRequest, NodeResponse]> = []

  readonly handle: NodeRequestHandler = (request, response) => {
    if (this.app === undefined) this.early.push([request, response])
    else this.app(request, response)
  }

  /** Serves the requests that waited, then every later one. */
  attach(app: NodeRequestHandler): void {
    this.app = app
    for (const [request, response] of this.early.splice(0)) app(request, response)
  }
}
