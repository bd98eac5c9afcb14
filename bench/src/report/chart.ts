import { Resvg } from "@resvg/resvg-js"
import type { Results } from "./Results.ts"

type Rows = NonNullable<Results["throughput"]>

const colors = { project: "#2563eb", baseline: "#9ca3af" } as const
const font = "DejaVu Sans, Arial, sans-serif"

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
const text = (x: number, y: number, content: string, attributes = "") =>
  `<text x="${x}" y="${y}" font-family="${font}" ${
    attributes.includes("font-size") ? "" : "font-size=\"13\" "
  }${attributes}>${escape(content)}</text>`

interface Panel {
  readonly title: string
  readonly value: (m: Rows[number]["project"]) => number
  readonly format: (x: number) => string
}

const panels: ReadonlyArray<Panel> = [
  { title: "requests per second (higher is better)", value: (m) => m.requestsPerSecond, format: (x) => x.toFixed(0) },
  { title: "p50 latency, ms (lower is better)", value: (m) => m.p50Ms, format: (x) => x.toFixed(0) },
  { title: "p99 latency, ms (lower is better)", value: (m) => m.p99Ms, format: (x) => x.toFixed(0) }
]

const labelWidth = 360
const panelWidth = 400
const barHeight = 14
const rowHeight = 2 * barHeight + 16
const top = 92

/**
 * Grouped horizontal bars, project against baseline, one row per scenario and one panel per
 * measure, each panel on its own linear scale. Drawn as SVG by hand and rasterised by resvg.
 */
export const renderChartSvg = (rows: Rows, subtitle: string): string => {
  const width = labelWidth + panels.length * panelWidth + 20
  const height = top + rows.length * rowHeight + 40
  const parts: Array<string> = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    text(
      16,
      24,
      "Club Training Service: project vs bare node:http baseline, same SQL and driver",
      "font-size=\"16\" font-weight=\"bold\""
    ),
    text(16, 44, subtitle, "fill=\"#4b5563\""),
    `<rect x="${width - 260}" y="12" width="12" height="12" fill="${colors.project}"/>`,
    text(width - 242, 23, "project (apps/server)"),
    `<rect x="${width - 260}" y="32" width="12" height="12" fill="${colors.baseline}"/>`,
    text(width - 242, 43, "baseline (node:http)")
  ]
  rows.forEach(({ scenario }, i) => {
    const y = top + i * rowHeight
    const ratio = rows[i]!.project.requestsPerSecond / rows[i]!.baseline.requestsPerSecond
    parts.push(text(16, y + barHeight - 2, scenario.title))
    parts.push(
      text(
        16,
        y + 2 * barHeight + 1,
        `project / baseline req/s: ${ratio.toFixed(2)}×`,
        "font-size=\"11\" fill=\"#4b5563\""
      )
    )
    if (i > 0) parts.push(`<line x1="16" x2="${width - 16}" y1="${y - 6}" y2="${y - 6}" stroke="#e5e7eb"/>`)
  })
  panels.forEach((panel, p) => {
    const x0 = labelWidth + p * panelWidth
    const barSpace = panelWidth - 90
    parts.push(text(x0, top - 12, panel.title, "font-weight=\"bold\""))
    rows.forEach((row, i) => {
      const max = Math.max(panel.value(row.project), panel.value(row.baseline), 1e-9)
      const y = top + i * rowHeight
      for (const [k, who] of (["project", "baseline"] as const).entries()) {
        const value = panel.value(row[who])
        const w = Math.max(1, (value / max) * barSpace)
        const by = y + k * barHeight
        parts.push(
          `<rect x="${x0}" y="${by}" width="${w.toFixed(1)}" height="${barHeight - 2}" fill="${colors[who]}"/>`
        )
        parts.push(text(x0 + w + 4, by + barHeight - 3, panel.format(value), "font-size=\"11\" fill=\"#111827\""))
      }
    })
  })
  parts.push(
    text(
      16,
      height - 14,
      "Bars are scaled per row and panel: compare the two bars of a row, not rows with each other.",
      "font-size=\"11\" fill=\"#6b7280\""
    )
  )
  parts.push("</svg>")
  return parts.join("\n")
}

export const renderPng = (svg: string): Buffer =>
  new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans" }, fitTo: { mode: "original" } })
    .render()
    .asPng()
