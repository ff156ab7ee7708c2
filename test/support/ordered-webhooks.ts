import type { ReceivedWebhook } from './webhook-receiver';

/** What one subject's receiver saw, accepted (2xx) webhooks only, in arrival order. */
export interface SubjectReceipts {
  /** The webhook-id of each distinct event, in the order it first arrived. */
  ids: string[];
  sequences: number[];
}

const subjectKey = (w: ReceivedWebhook) => `${w.json?.subject?.type}:${w.json?.subject?.id}`;
const accepted = (w: ReceivedWebhook) => w.answeredWith >= 200 && w.answeredWith < 300;

/**
 * Checks what an ordered endpoint's receiver accepted, per subject: sequences 1, 2, 3… in arrival
 * order, without gaps, and a sequence seen again only as a re-delivery of the same webhook-id that
 * carried it last. Answers every breach (empty when the order holds) and, per subject, the distinct
 * events in the order they arrived.
 */
export function checkSubjectOrder(webhooks: readonly ReceivedWebhook[]): {
  violations: string[];
  bySubject: Map<string, SubjectReceipts>;
} {
  const violations: string[] = [];
  const bySubject = new Map<string, SubjectReceipts & { last: number; lastId?: string }>();
  for (const w of webhooks.filter(accepted)) {
    const key = subjectKey(w);
    const id = String(w.headers['webhook-id']);
    const sequence = Number(w.json?.sequence);
    const seen = bySubject.get(key) ?? { ids: [], sequences: [], last: 0 };
    bySubject.set(key, seen);
    if (sequence === seen.last && id === seen.lastId) continue; // a re-delivery of the last one
    if (sequence !== seen.last + 1) {
      violations.push(`${key}: sequence ${sequence} (${id}) after ${seen.last}`);
    } else if (seen.ids.includes(id)) {
      violations.push(`${key}: ${id} came again as sequence ${sequence}`);
    }
    seen.ids.push(id);
    seen.sequences.push(sequence);
    seen.last = Math.max(seen.last, sequence);
    seen.lastId = id;
  }
  return {
    violations,
    bySubject: new Map([...bySubject].map(([key, { ids, sequences }]) => [key, { ids, sequences }])),
  };
}
