import { z } from 'zod';
import { Network } from '../domain/service-codes';
import { SERVICE_CODE_EXAMPLE, SERVICE_CODE_LIST_EXAMPLE } from './service-code.examples';

export const NetworkSchema = z
  .enum(Network)
  .describe('Card network; service codes 10 and 11 exist on VISA only');

export const ServiceCodeResponse = z
  .object({
    serviceCode: z.string().describe('Service code (authorisation type)'),
    name: z.string().describe('Name in the language of Accept-Language'),
    meaning: z.string().describe('Meaning in the language of Accept-Language'),
    networks: z.array(NetworkSchema).describe('Networks on which the code exists'),
  })
  .meta({ id: 'ServiceCode', example: SERVICE_CODE_EXAMPLE });

export const ServiceCodeListResponse = z
  .object({ items: z.array(ServiceCodeResponse) })
  .meta({ id: 'ServiceCodeList', example: SERVICE_CODE_LIST_EXAMPLE });
