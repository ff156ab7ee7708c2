import { cardIds, provisionBaselineCards, provisionFincoreCards } from '../drivers/cards';
import { loadNotes, runLoad } from '../support/load';
import { BenchProcess } from '../support/processes';
import { Metric } from '../support/report';
import { BenchContext, log, reason, Scenario, Stage } from './scenario';

type NextRequest = () => { path: string; body?: string };

/** One HTTP load of the card API and of the baseline: what to send, and a check that both agree. */
export interface CardLoad {
  label: string;
  headers: Record<string, string>;
  /** A fresh request generator per system. */
  next(): NextRequest;
  /** A disagreement between the systems' answers, reported as a warning, or null. */
  precheck?(cardApi: string): Promise<string | null>;
}

/** The card world both systems hold, and the measurement of one load in each. */
export interface CardStage {
  ctx: BenchContext;
  cards: string[];
  measure(name: string, load: CardLoad): Promise<Metric[]>;
}

/**
 * The HTTP scenarios of the card API, on one card-api process and one provisioned card world:
 * each measures fincore, then the baseline, under the same closed-loop load.
 */
export function cardLoad(scenarios: Scenario<CardStage>[]): Stage {
  return { names: scenarios.map((s) => s.name), run: (ctx, wants) => runStage(ctx, scenarios, wants) };
}

async function runStage(
  ctx: BenchContext,
  scenarios: Scenario<CardStage>[],
  wants: (name: string) => boolean,
): Promise<Metric[]> {
  const { settings, systems, world, tenant } = ctx;
  const cards = cardIds(settings.cards);
  let cardApi: BenchProcess | undefined;
  let setupWhyNot: string | undefined;
  try {
    log('cards: starting card-api');
    cardApi = await systems.startFincore('card-api');
    log(`cards: provisioning catalogs, the standard tariff and ${cards.length} cards through the card API`);
    await provisionFincoreCards(cardApi.url, tenant, cards.length);
  } catch (error) {
    setupWhyNot = reason(error);
    log(`cards: fincore set-up failed: ${setupWhyNot}`);
  }
  await provisionBaselineCards(world, tenant, cards.length);
  await world.analyze();

  const run = (url: string, next: NextRequest, headers: Record<string, string>) =>
    runLoad({
      url,
      connections: settings.connections,
      seconds: settings.seconds,
      warmupSeconds: settings.warmupSeconds,
      method: 'POST',
      headers,
      next,
    });

  const measure = async (name: string, load: CardLoad): Promise<Metric[]> => {
    let whyNot = setupWhyNot;
    const notes: string[] = [];
    let f;
    if (!whyNot && cardApi) {
      try {
        const disagreement = load.precheck ? await load.precheck(cardApi.url) : null;
        if (disagreement) notes.push(`WARNING: ${disagreement}`);
        log(`${name}: fincore, ${settings.warmupSeconds} s warm-up + ${settings.seconds} s`);
        f = await run(cardApi.url, load.next(), load.headers);
        notes.push(...loadNotes('fincore', f));
      } catch (error) {
        whyNot = reason(error);
        log(`${name}: fincore not measured: ${whyNot}`);
      }
    }
    log(`${name}: baseline, ${settings.warmupSeconds} s warm-up + ${settings.seconds} s`);
    const b = await run(ctx.baselineApi.url, load.next(), load.headers);
    notes.push(...loadNotes('baseline', b));
    const row = (suffix: string, unit: string, higherIsBetter: boolean, fv?: number, bv?: number) => ({
      scenario: name,
      name: `${load.label}${suffix}`,
      unit,
      higherIsBetter,
      fincore: fv ?? null,
      baseline: bv ?? null,
      notMeasured: whyNot,
    });
    return [
      { ...row('/s', '/s', true, f?.okPerSecond, b.okPerSecond), notes },
      row(' latency p50', 'ms', false, f?.p50Ms, b.p50Ms),
      row(' latency p99', 'ms', false, f?.p99Ms, b.p99Ms),
    ];
  };

  const stage: CardStage = { ctx, cards, measure };
  const metrics: Metric[] = [];
  for (const scenario of scenarios) if (wants(scenario.name)) metrics.push(...(await scenario.run(stage)));
  if (cardApi) await systems.stop(cardApi);
  return metrics;
}
