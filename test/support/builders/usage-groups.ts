import { ApiClient, ApiResponse, expectStatus } from '../http';
import { uniqueId } from './ids';

export interface UsageGroupInput {
  code: string;
  name: string;
  allowedServiceCodes: string[];
}

/** Creates a usage group through the API (201 or the test fails); cash and purchases unless told. */
export async function createUsageGroup(
  api: ApiClient,
  token: string,
  overrides: Partial<UsageGroupInput> = {},
): Promise<UsageGroupInput> {
  const group = {
    code: uniqueId('UG'),
    name: 'Usage group',
    allowedServiceCodes: ['00', '01'],
    ...overrides,
  };
  expectStatus(
    await api.post('/api/v1/usage-groups', group, { token }),
    201,
    `create usage group ${group.code}`,
  );
  return group;
}

/** PUT of a usage group: the answer, for the test to judge. */
export function updateUsageGroup(
  api: ApiClient,
  token: string,
  code: string,
  body: Omit<UsageGroupInput, 'code'>,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return api.put(`/api/v1/usage-groups/${code}`, body, { token, headers });
}
