import type { z } from 'zod';
import type { Language } from '@fincore/platform';
import { NETWORKS, ServiceCodeDefinition } from '../domain/service-codes';
import type { ServiceCodeListResponse, ServiceCodeResponse } from './service-code.schemas';

export function mapServiceCode(
  code: ServiceCodeDefinition,
  language: Language,
): z.infer<typeof ServiceCodeResponse> {
  return {
    serviceCode: code.serviceCode,
    name: code.name[language],
    meaning: code.meaning[language],
    networks: [...(code.networks ?? NETWORKS)],
  };
}

export function mapServiceCodeList(
  codes: readonly ServiceCodeDefinition[],
  language: Language,
): z.infer<typeof ServiceCodeListResponse> {
  return { items: codes.map((code) => mapServiceCode(code, language)) };
}
