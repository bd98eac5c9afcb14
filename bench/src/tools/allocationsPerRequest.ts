// Bytes a running server allocates per request, and where (src/load/allocationSampler.ts), for
// one request sent again and again; the allocations phase of the bench does the same for every
// scenario on both servers. The server must run with `--inspect=127.0.0.1:<port>`. Prints the
// bytes per request, then by package and by function, and with CALLERS_OF=<regex> the calls that
// led to the functions it matches. Usage:
//   node src/tools/allocationsPerRequest.ts <inspector-port> <url> [requests=10000] [token] [METHOD] [body]
import autocannon from "autocannon"
import { sampleAllocations } from "../load/allocationSampler.ts"

const [port, url, requestsText = "10000", token, method = "GET", body] = process.argv.slice(2)
if (port === undefined || url === undefined) {
  console.error("usage: allocationsPerRequest.ts <inspector-port> <url> [requests] [token] [METHOD] [body]")
  process.exit(2)
}

const load = async (amount: number) => {
  const result = await autocannon({
    url,
    method,
    connections: 8,
    amount,
    headers: {
      "content-type": "application/json",
      ...(token === undefined || token === "" ? {} : { authorization: `Bearer ${token}` })
    },
    ...(body === undefined ? {} : { body })
  })
  if (result.non2xx > 0) console.error(`${result.non2xx} answers were not 2xx`)
  return result.requests.total
}

const callersOf = process.env["CALLERS_OF"]
const sample = await sampleAllocations(Number(port), Number(requestsText), load, {
  top: Number(process.env["TOP"] ?? 40),
  ...(callersOf === undefined ? {} : { callersOf: new RegExp(callersOf) })
})
const bytes = (value: number) => String(Math.round(value)).padStart(8)
console.log(`${sample.requests} requests; bytes allocated per request: ${bytes(sample.bytesPerRequest).trim()}`)
console.log("\nby package (bytes per request)")
for (const { name, bytesPerRequest } of sample.byPackage) console.log(`${bytes(bytesPerRequest)}  ${name}`)
console.log("\nby function (bytes per request)")
for (const { name, bytesPerRequest } of sample.byFunction) console.log(`${bytes(bytesPerRequest)}  ${name}`)
if (sample.callers !== undefined) {
  console.log(`\nwho calls ${callersOf} (bytes per request; innermost first)`)
  for (const { name, bytesPerRequest } of sample.callers) console.log(`${bytes(bytesPerRequest)}  ${name}`)
}
