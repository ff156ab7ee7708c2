import { summaryLine, writeSummary } from './summary';

/** Writes test/artifacts/faults-summary.json and repeats every scenario's line after jest's output. */
export default function globalTeardown(): void {
  const figures = writeSummary();
  const lines = figures.map((f) => `  ${summaryLine(f)}`).join('\n');
  process.stdout.write(`\nfaults summary (test/artifacts/faults-summary.json):\n${lines}\n`);
}
