export const CREATE_USAGE_GROUP_EXAMPLE = {
  code: 'STANDARD_DEBIT',
  name: 'Standard debit',
  allowedServiceCodes: ['00', '0A', '0C', '01', '20', '30'],
};

export const UPDATE_USAGE_GROUP_EXAMPLE = { name: 'ATM only', allowedServiceCodes: ['01', '30', '39'] };

export const USAGE_GROUP_EXAMPLE = {
  code: 'ATM_ONLY',
  name: 'ATM only',
  allowedServiceCodes: ['01', '21', '30', '39'],
  createdAt: '2025-11-20T09:00:00.000Z',
  updatedAt: '2025-11-20T09:00:00.000Z',
};
