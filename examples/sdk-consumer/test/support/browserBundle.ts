import { build } from "esbuild"
import { join } from "node:path"

export interface Bundle {
  readonly file: string
  readonly bytes: number
  /** The packages the bundle holds code of (`effect`, `@club/contract`, …). */
  readonly packages: ReadonlyArray<string>
}

const packageOf = (input: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/u.exec(input)?.[1]

/** Bundles one of the app's browser pages as a web app's build would: for browsers, minified, tree-shaken. */
export const bundlePage = async (appDir: string, page: string): Promise<Bundle> => {
  const outfile = join(appDir, "public", `${page}.js`)
  const result = await build({
    absWorkingDir: appDir,
    entryPoints: [join(appDir, "src", "browser", `${page}.ts`)],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    outfile,
    metafile: true,
    logLevel: "silent"
  })
  const output = Object.values(result.metafile.outputs)[0]!
  const packages = new Set(Object.keys(result.metafile.inputs).flatMap((input) => packageOf(input) ?? []))
  return { file: outfile, bytes: output.bytes, packages: [...packages].sort() }
}
