import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const MODULE = join(__dirname, '..', 'apps', 'portal', 'src', 'time-window.ts');

/**
 * The answers of the portal's time-window functions to `calls` (an expression of them) in a Node
 * process of the given time zone: a process reads TZ once, and a browser's zone is what its Date
 * assumes, so this is the portal in a browser of that zone.
 */
function inZone(zone: string, calls: string): unknown {
  const module = ts.transpileModule(readFileSync(MODULE, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const run = spawnSync(
    process.execPath,
    ['-e', `${module}\nprocess.stdout.write(JSON.stringify(${calls}))`],
    {
      env: { TZ: zone },
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

describe("portal: times picked in the browser's zone, sent as UTC", () => {
  it('reads a datetime-local value as local time, summer time included', () => {
    const values = ['2026-11-27T10:30', '2026-07-01T10:30', '2026-07-01T10:30:15'];
    expect(inZone('Europe/Berlin', `${JSON.stringify(values)}.map(instantOfLocalInput)`)).toEqual([
      '2026-11-27T09:30:00.000Z',
      '2026-07-01T08:30:00.000Z',
      '2026-07-01T08:30:15.000Z',
    ]);
  });

  it('shows an instant as local time to the minute, which reads back as the instant', () => {
    const shown = `localInputOf('2026-11-27T09:30:45.000Z')`;
    const again = `instantOfLocalInput(localInputOf('2026-11-27T09:30:00.000Z'))`;
    expect(inZone('America/New_York', `[${shown}, ${again}]`)).toEqual([
      '2026-11-27T04:30',
      '2026-11-27T09:30:00.000Z',
    ]);
  });
});
