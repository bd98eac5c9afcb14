/**
 * A status message as the gRPC HTTP/2 protocol encodes it (Status-Message): the UTF-8 bytes outside
 * 0x20–0x7E, and "%" itself, percent-encoded; every other character as it is. connect-es's own
 * encoder is not part of its public API; this is the same encoding as its patched one
 * (patches/README.md), so an answer from here and one from connect-node read alike.
 */
export const grpcStatusMessage = (message: string): string => {
  if (/^[\x20-\x24\x26-\x7E]*$/u.test(message)) return message
  let encoded = ""
  for (const byte of new TextEncoder().encode(message)) {
    encoded += byte >= 0x20 && byte <= 0x7e && byte !== 0x25
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
  }
  return encoded
}
