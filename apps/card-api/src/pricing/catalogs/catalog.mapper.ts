import type { z } from 'zod';
import type { LabelEntity } from './label.entity';
import type { LabelResponse, TransactionTypeResponse } from './catalog.schemas';
import type { TransactionTypeEntity } from './transaction-type.entity';

export function mapTransactionType(
  e: Pick<TransactionTypeEntity, 'code' | 'name' | 'zeroAmountAllowed'>,
): z.infer<typeof TransactionTypeResponse> {
  return { code: e.code, name: e.name, zeroAmountAllowed: e.zeroAmountAllowed };
}

export function mapLabel(e: Pick<LabelEntity, 'code' | 'name'>): z.infer<typeof LabelResponse> {
  return { code: e.code, name: e.name };
}
