import type { RawRequest } from '../support/raw-http';
import { toCurl } from '../support/raw-http';

export type InputKind = 'valid-shaped' | 'malformed';

/** One distinct kind of failure, with the first request that showed it and how to replay it. */
export interface Finding {
  operation: string;
  kind: InputKind;
  mutation?: string;
  problem: string;
  detail: string;
  curl?: string;
  replay: string;
  occurrences: number;
}

/** Distinct findings of one run: each (operation, kind, mutation, problem) once, with a count. */
export class Findings {
  private readonly byKey = new Map<string, Finding>();

  constructor(private readonly baseUrl: string) {}

  add(
    c: { operation: string; kind: InputKind; mutation?: string; raw?: RawRequest; replay: string },
    [problem, detail]: [string, string],
  ): void {
    const key = `${c.operation}|${c.kind}|${c.mutation ?? ''}|${problem}`;
    const known = this.byKey.get(key);
    if (known) {
      known.occurrences += 1;
      return;
    }
    this.byKey.set(key, {
      operation: c.operation,
      kind: c.kind,
      mutation: c.mutation,
      problem,
      detail: detail.slice(0, 600),
      curl: c.raw && toCurl(this.baseUrl, c.raw),
      replay: c.replay,
      occurrences: 1,
    });
  }

  list(): Finding[] {
    return [...this.byKey.values()];
  }
}

/**
 * Fails with the findings grouped by class (kind, mutation, problem): for each class the operations
 * that showed it and one example spelled out (detail, curl, replay); passes when there are none.
 */
export function expectNoFindings(findings: Finding[], seed: number): void {
  if (!findings.length) return;
  const classes = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = `[${f.kind}${f.mutation ? `: ${f.mutation}` : ''}] ${f.problem}`;
    classes.set(key, [...(classes.get(key) ?? []), f]);
  }
  const text = [...classes]
    .map(([key, [example, ...others]], i) => {
      const operations = [example, ...others].map((f) => `${f.operation} (${f.occurrences}x)`).join(', ');
      const curl = example.curl ? `\n   ${example.curl}` : '';
      return `${i + 1}. ${key}\n   in: ${operations}\n   ${example.detail}${curl}\n   replay: ${example.replay}`;
    })
    .join('\n\n');
  throw new Error(
    `${classes.size} classes of fuzz findings in ${findings.length} (operation, class) pairs ` +
      `(FUZZ_SEED=${seed}):\n\n${text}`,
  );
}
