/** One curve of a panel: its points (x, y); points whose y is not a finite number are left out. */
export interface ChartSeries {
  label: string;
  points: ReadonlyArray<readonly [x: number, y: number]>;
}

/** One small chart: a logarithmic x axis (the curves double or multiply their load), a linear y axis from 0. */
export interface ChartPanel {
  title: string;
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
}

const PANEL = { width: 320, height: 230, left: 56, right: 14, top: 34, bottom: 44 };
/** Room right of the plot for the names of several series. */
const LEGEND = 92;
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
const HEADER = 36;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const round = (n: number) => Math.round(n * 10) / 10;
const tick = (n: number) =>
  Number.isInteger(n) || n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toPrecision(2);

function text(x: number, y: number, content: string, attributes = ''): string {
  return `<text x="${round(x)}" y="${round(y)}"${attributes ? ` ${attributes}` : ''}>${escapeXml(content)}</text>`;
}

/** The panel's curves and axes, its top left corner at (0, 0) of a translated group. */
function panelSvg(panel: ChartPanel): string[] {
  const { width, height, left, right, top, bottom } = PANEL;
  const series = panel.series.map((s) => ({
    ...s,
    points: s.points.filter(([x, y]) => Number.isFinite(y) && x > 0),
  }));
  const xs = [...new Set(series.flatMap((s) => s.points.map(([x]) => x)))].sort((a, b) => a - b);
  const maxY = Math.max(0, ...series.flatMap((s) => s.points.map(([, y]) => y))) * 1.1 || 1;
  const [lo, hi] = [Math.log10(xs[0] ?? 1), Math.log10(xs[xs.length - 1] ?? 1)];
  const plotWidth = width - left - right - (series.length > 1 ? LEGEND : 0);
  const plotHeight = height - top - bottom;
  const px = (x: number) => left + (hi > lo ? ((Math.log10(x) - lo) / (hi - lo)) * plotWidth : plotWidth / 2);
  const py = (y: number) => top + plotHeight - (y / maxY) * plotHeight;
  const out = [
    text(width / 2, 18, panel.title, 'text-anchor="middle" font-weight="bold"'),
    `<path d="M${left} ${top}V${top + plotHeight}H${left + plotWidth}" fill="none" stroke="#333"/>`,
    text(left + plotWidth / 2, height - 8, panel.xLabel, 'text-anchor="middle"'),
    text(
      14,
      top + plotHeight / 2,
      panel.yLabel,
      `text-anchor="middle" transform="rotate(-90 14 ${round(top + plotHeight / 2)})"`,
    ),
  ];
  for (const x of xs) out.push(text(px(x), top + plotHeight + 16, tick(x), 'text-anchor="middle"'));
  for (const y of [0, maxY / 2, maxY / 1.1])
    out.push(text(left - 4, py(y) + 4, tick(y), 'text-anchor="end"'));
  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const points = s.points.map(([x, y]) => `${round(px(x))},${round(py(y))}`).join(' ');
    out.push(`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    for (const [x, y] of s.points)
      out.push(`<circle cx="${round(px(x))}" cy="${round(py(y))}" r="3" fill="${colour}"/>`);
    if (series.length > 1)
      out.push(text(left + plotWidth + 8, top + 12 + 14 * i, s.label, `fill="${colour}"`));
  });
  return out;
}

/**
 * A self-contained SVG of `panels` side by side, `columns` to a row: one polyline (and a dot per
 * point) for each series, every text escaped. No dependency, so the benchmark can write it anywhere.
 */
export function svgChart(title: string, panels: readonly ChartPanel[], columns = 3): string {
  const cols = Math.max(1, Math.min(columns, panels.length));
  const rows = Math.ceil(panels.length / cols);
  const width = cols * PANEL.width;
  const height = HEADER + rows * PANEL.height;
  const body = panels.flatMap((panel, i) => [
    `<g transform="translate(${(i % cols) * PANEL.width} ${HEADER + Math.floor(i / cols) * PANEL.height})">`,
    ...panelSvg(panel),
    '</g>',
  ]);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    text(width / 2, 22, title, 'text-anchor="middle" font-size="14" font-weight="bold"'),
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
