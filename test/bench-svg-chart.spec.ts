import { ChartPanel, svgChart as sut } from '../bench/support/svg-chart';

const panel = (title: string, series: ChartPanel['series']): ChartPanel => ({
  title,
  xLabel: 'endpoints per event',
  yLabel: 'webhooks/s',
  series,
});

const polylines = (svg: string) =>
  [...svg.matchAll(/<polyline points="([^"]*)"/g)].map((m) => m[1].split(' ').filter(Boolean));

describe('svgChart (bench chart writer)', () => {
  it('draws one polyline per series, with one point per measured value', () => {
    const svg = sut('cost curves', [
      panel('endpoints', [
        {
          label: 'delivered/s',
          points: [
            [1, 300],
            [10, 900],
            [100, 1200],
          ],
        },
      ]),
      panel('payload', [
        {
          label: 'a',
          points: [
            [1, 2],
            [16, 3],
          ],
        },
        {
          label: 'b',
          points: [
            [1, 1],
            [16, NaN],
            [64, 4],
          ],
        },
      ]),
    ]);

    expect(polylines(svg).map((points) => points.length)).toEqual([3, 2, 2]);
    expect(svg.match(/<circle /g)).toHaveLength(7);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  });

  it('places larger values higher and further right (log x, linear y from 0)', () => {
    const [points] = polylines(
      sut('t', [
        panel('p', [
          {
            label: 's',
            points: [
              [1, 0],
              [10, 50],
              [100, 100],
            ],
          },
        ]),
      ]),
    );
    const [a, b, c] = points.map((p) => p.split(',').map(Number));

    expect(b[0] - a[0]).toBeCloseTo(c[0] - b[0], 1);
    expect(a[1]).toBeGreaterThan(b[1]);
    expect(b[1]).toBeGreaterThan(c[1]);
  });

  it('escapes every text it writes', () => {
    const svg = sut('<script>&"\'', [
      panel('a < b & c', [
        { label: '"quoted"', points: [[1, 1]] },
        { label: 'x>y', points: [[2, 2]] },
      ]),
    ]);

    expect(svg).toContain('&lt;script&gt;&amp;&quot;&#39;');
    expect(svg).toContain('a &lt; b &amp; c');
    expect(svg).toContain('&quot;quoted&quot;');
    expect(svg).toContain('x&gt;y');
    expect(svg).not.toContain('<script>');
  });

  it('draws an empty polyline, not a broken file, for a series with nothing measured', () => {
    const svg = sut('t', [panel('p', [{ label: 's', points: [[1, NaN]] }])]);

    expect(polylines(svg)).toEqual([[]]);
    expect(svg).not.toMatch(/NaN|Infinity/);
  });
});
