import type { DemoSeed } from '@fincore/platform';
import { CardsDemoSeed } from '../../card-api/src/cards/demo.seed';
import { PricingDemoSeed } from '../../card-api/src/pricing/demo.seed';
import { personsDemoSeed } from '../../credentials-api/src/persons/demo.seed';

/** Each bounded context's demo data; the CLI is the one place that knows them all. */
export const DEMO_SEEDS: DemoSeed[] = [personsDemoSeed, CardsDemoSeed, PricingDemoSeed];
