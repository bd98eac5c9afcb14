/** How the TodoService is reached: the Connect protocol (JSON or binary) or gRPC-Web, all over HTTP/1.1. */
export type TodoProtocol = "connect-json" | "connect-binary" | "grpc-web"
