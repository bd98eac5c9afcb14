import { type DescFile, type DescMessage, type DescService, toBinary } from "@bufbuild/protobuf"
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt"
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect"
import * as v1 from "../gen/grpc/reflection/v1/reflection_pb.ts"
import * as v1alpha from "../gen/grpc/reflection/v1alpha/reflection_pb.ts"

/** The two names of the reflection service: v1, and v1alpha, which older tools (grpcurl before 1.9) still call first. */
export const reflectionServices: ReadonlyArray<DescService> = [v1.ServerReflection, v1alpha.ServerReflection]

/** A reflection request as both versions shape it. */
interface Request {
  readonly host: string
  readonly messageRequest:
    | {
      readonly case: "fileByFilename" | "fileContainingSymbol" | "allExtensionNumbersOfType" | "listServices"
      readonly value: string
    }
    | {
      readonly case: "fileContainingExtension"
      readonly value: { readonly containingType: string; readonly extensionNumber: number }
    }
    | { readonly case: undefined; readonly value?: undefined }
}

/** A reflection answer as both versions shape it, less `original_request`. */
type Answer =
  | { readonly case: "fileDescriptorResponse"; readonly value: { readonly fileDescriptorProto: Array<Uint8Array> } }
  | {
    readonly case: "allExtensionNumbersResponse"
    readonly value: { readonly baseTypeName: string; readonly extensionNumber: Array<number> }
  }
  | { readonly case: "listServicesResponse"; readonly value: { readonly service: Array<{ readonly name: string }> } }
  | { readonly case: "errorResponse"; readonly value: { readonly errorCode: number; readonly errorMessage: string } }

const notFound = (message: string): Answer => ({
  case: "errorResponse",
  value: { errorCode: Code.NotFound, errorMessage: message }
})

/** Every file the services are declared in, with the files they import, by file name. */
const filesOf = (services: ReadonlyArray<DescService>): Map<string, DescFile> => {
  const files = new Map<string, DescFile>()
  const add = (file: DescFile): void => {
    if (files.has(file.proto.name)) return
    files.set(file.proto.name, file)
    file.dependencies.forEach(add)
  }
  for (const service of services) add(service.file)
  return files
}

/**
 * Every fully-qualified name a file declares, as protoc resolves names: messages, enums and services,
 * and the fields, oneofs, nested types, enum values and methods in them (an enum value is named in
 * the scope of its enum, not inside it), and extensions.
 */
const symbolsOf = (files: Iterable<DescFile>) => {
  const symbols = new Map<string, DescFile>()
  const messages = new Map<string, DescMessage>()
  for (const file of files) {
    const scopeOf = (parent: DescMessage | undefined) => (parent?.typeName ?? file.proto.package)
    const qualified = (scope: string, name: string) => (scope === "" ? name : `${scope}.${name}`)
    const addEnum = (parent: DescMessage | undefined) => (descEnum: DescFile["enums"][number]) => {
      symbols.set(descEnum.typeName, file)
      for (const value of descEnum.values) symbols.set(qualified(scopeOf(parent), value.name), file)
    }
    const addMessage = (message: DescMessage): void => {
      symbols.set(message.typeName, file)
      messages.set(message.typeName, message)
      for (const field of message.fields) symbols.set(`${message.typeName}.${field.name}`, file)
      for (const oneof of message.oneofs) symbols.set(`${message.typeName}.${oneof.name}`, file)
      for (const extension of message.nestedExtensions) symbols.set(extension.typeName, file)
      message.nestedEnums.forEach(addEnum(message))
      message.nestedMessages.forEach(addMessage)
    }
    file.messages.forEach(addMessage)
    file.enums.forEach(addEnum(undefined))
    for (const extension of file.extensions) symbols.set(extension.typeName, file)
    for (const service of file.services) {
      symbols.set(service.typeName, file)
      for (const method of service.methods) symbols.set(`${service.typeName}.${method.name}`, file)
    }
  }
  return { symbols, messages }
}

/**
 * Answers gRPC server reflection (grpc/reflection/v1/reflection.proto, v1 and v1alpha alike) for
 * `services`: list_services names them; file_by_filename and file_containing_symbol answer the file
 * (a serialized FileDescriptorProto) with the files it imports, transitively, those already sent
 * on the same stream left out (as grpc-go does); an unknown file, symbol or extension is an
 * error_response NOT_FOUND, and the stream goes on. The descriptors are the ones compiled into the
 * server, so a client sees exactly what it serves.
 */
export const makeReflection = (services: ReadonlyArray<DescService>) => {
  const files = filesOf(services)
  const { messages, symbols } = symbolsOf(files.values())
  const serialized = new Map(
    Array.from(files, ([name, file]) => [name, toBinary(FileDescriptorProtoSchema, file.proto)])
  )
  const listed = services.map((service) => ({ name: service.typeName })).sort((a, b) => a.name.localeCompare(b.name))

  /** The file first, then what it imports that this stream has not been sent yet. */
  const withDependencies = (file: DescFile, sent: Set<string>): Answer => {
    const fileDescriptorProto: Array<Uint8Array> = []
    const queue = [file]
    for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
      if (fileDescriptorProto.length > 0 && sent.has(current.proto.name)) continue
      sent.add(current.proto.name)
      fileDescriptorProto.push(serialized.get(current.proto.name)!)
      queue.push(...current.dependencies)
    }
    return { case: "fileDescriptorResponse", value: { fileDescriptorProto } }
  }

  const answer = (request: Request, sent: Set<string>): Answer => {
    const query = request.messageRequest
    switch (query.case) {
      case "listServices":
        return { case: "listServicesResponse", value: { service: listed.map((service) => ({ ...service })) } }
      case "fileByFilename": {
        const file = files.get(query.value)
        return file === undefined ? notFound(`unknown file ${query.value}`) : withDependencies(file, sent)
      }
      case "fileContainingSymbol": {
        const file = symbols.get(query.value)
        return file === undefined ? notFound(`unknown symbol ${query.value}`) : withDependencies(file, sent)
      }
      case "fileContainingExtension":
        // No served file declares an extension.
        return notFound(`unknown extension ${query.value.extensionNumber} of ${query.value.containingType}`)
      case "allExtensionNumbersOfType":
        return messages.has(query.value)
          ? { case: "allExtensionNumbersResponse", value: { baseTypeName: query.value, extensionNumber: [] } }
          : notFound(`unknown type ${query.value}`)
      case undefined:
        return {
          case: "errorResponse",
          value: { errorCode: Code.InvalidArgument, errorMessage: "the request names no query" }
        }
    }
  }

  /**
   * One answer per request, in order, until the client ends its side of the stream, or the server
   * drains: a tool may keep its reflection stream open while it calls (buf curl does), and the
   * drain would wait for it. The stream then ends `unavailable` between two requests.
   */
  async function* stream<R extends Request>(requests: AsyncIterable<R>, draining: AbortSignal | undefined) {
    const sent = new Set<string>()
    const pending = requests[Symbol.asyncIterator]()
    let onDrain: (() => void) | undefined
    const drained = new Promise<"drained">((resolve) => {
      onDrain = () => resolve("drained")
      if (draining?.aborted === true) onDrain()
      else draining?.addEventListener("abort", onDrain, { once: true })
    })
    try {
      for (;;) {
        const next = await Promise.race([pending.next(), drained])
        if (next === "drained") throw new ConnectError("The server is shutting down", Code.Unavailable)
        if (next.done === true) return
        const request = next.value
        yield { validHost: request.host, originalRequest: request, messageResponse: answer(request, sent) }
      }
    } finally {
      draining?.removeEventListener("abort", onDrain!)
    }
  }

  /**
   * Registers both versions of the service; neither needs a caller's credentials (docs/DECISIONS.md).
   * Their streams end when `draining` aborts.
   */
  return (router: ConnectRouter, draining?: AbortSignal): void => {
    router.service(v1.ServerReflection, { serverReflectionInfo: (requests) => stream(requests, draining) })
    router.service(v1alpha.ServerReflection, { serverReflectionInfo: (requests) => stream(requests, draining) })
  }
}
