import type { Principal } from '@fincore/platform';
import type { Transaction } from '@fincore/events';
import type { UsageGroupEntity } from './usage-group.entity';

/**
 * What a change of a group's codes does to the group's cards, in the group change's transaction
 * (the group locked FOR UPDATE). The card settings provide it: a group knows no card.
 */
export abstract class UsageGroupCards {
  abstract applyUsageGroupChange(
    tx: Transaction,
    principal: Principal,
    previousCodes: readonly string[],
    group: UsageGroupEntity,
  ): Promise<void>;
}
