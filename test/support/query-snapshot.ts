import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Holds hand-written statements against their checked-in text, one `-- name` block each, so a
 * change of the SQL a repository sends shows in review. UPDATE_QUERIES=1 writes the file instead.
 */
export function expectQueriesSnapshot(file: string, statements: Record<string, string>): void {
  const text = Object.entries(statements)
    .map(([name, sql]) => `-- ${name}\n${sql.trim()};\n`)
    .join('\n');
  if (process.env.UPDATE_QUERIES === '1') writeFileSync(file, text);
  expect(existsSync(file) ? readFileSync(file, 'utf8') : `(no ${file})`).toBe(text);
}
