import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { ApiProblem, type FieldProblem } from './api';
import type { Language, Translate } from './i18n';

export interface PortalContext {
  t: Translate;
  language: Language;
  canChange: boolean;
}

export const Portal = createContext<PortalContext>({
  t: (key) => key,
  language: 'en',
  canChange: false,
});

export const usePortal = () => useContext(Portal);

/** Loads once and again on `reload`; keeps the last good value while reloading. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [value, setValue] = useState<T>();
  const [problem, setProblem] = useState<string>();
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (v) => current && (setValue(v), setProblem(undefined)),
      (e: Error) => current && setProblem(e.message),
    );
    return () => {
      current = false;
    };
  }, [...deps, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { value, problem, reload };
}

/** Runs a change, then `done`; a refusal shows as a problem instead, with the fields it names. */
export function useAction() {
  const [problem, setProblem] = useState<string>();
  const [fields, setFields] = useState<readonly FieldProblem[]>([]);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, done?: () => void) => {
    setBusy(true);
    setProblem(undefined);
    setFields([]);
    try {
      await action();
      done?.();
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
      if (e instanceof ApiProblem) setFields(e.fields);
    } finally {
      setBusy(false);
    }
  };
  return { run, problem, fields, busy };
}

export function Problem({ text }: { text?: string }) {
  const { t } = usePortal();
  if (!text) return null;
  return (
    <p role="alert" className="problem">
      {t('problem', { detail: text })}
    </p>
  );
}

/** What the API said of one field (and of the fields inside it), beside that field. */
export function FieldProblems({
  id,
  field,
  fields,
}: {
  id: string;
  field: string;
  fields: readonly FieldProblem[];
}) {
  const mine = fields.filter((f) => f.field === field || f.field.startsWith(`${field}.`));
  if (mine.length === 0) return null;
  return (
    <ul id={id} role="alert" className="problem field-problem">
      {mine.map((f) => (
        <li key={f.field + f.message}>
          {f.field === field ? f.message : `${f.field.slice(field.length + 1)}: ${f.message}`}
        </li>
      ))}
    </ul>
  );
}

export function Loading({ problem }: { problem?: string }) {
  const { t } = usePortal();
  return problem ? <Problem text={problem} /> : <p aria-busy="true">{t('loading')}</p>;
}

export function formatTime(iso: string | null | undefined, language: Language): string {
  if (!iso) return '–';
  return new Date(iso).toLocaleString(language === 'de' ? 'de-DE' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'medium',
  });
}

export function Badge({ kind, children }: { kind: string; children: ReactNode }) {
  return <span className={`badge badge-${kind.toLowerCase()}`}>{children}</span>;
}

/** Only what a session that may change things sees: a read-only session gets no such control. */
export function IfCanChange({ children }: { children: ReactNode }) {
  return usePortal().canChange ? <>{children}</> : null;
}
