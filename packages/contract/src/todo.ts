// The contract only: messages and the TodoService descriptor, no server code (clients import this).
export * from "./gen/todo_pb.ts"
