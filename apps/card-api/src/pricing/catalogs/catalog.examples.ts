// OpenAPI examples of the catalog operations.

export const TRANSACTION_TYPE_REQUEST_EXAMPLE = {
  name: 'Cash withdrawal at an ATM',
  zeroAmountAllowed: false,
};

export const TRANSACTION_TYPE_EXAMPLE = {
  code: 'ATM_WITHDRAWAL',
  name: 'Cash withdrawal at an ATM',
  zeroAmountAllowed: false,
};

export const TRANSACTION_TYPE_LIST_EXAMPLE = { items: [TRANSACTION_TYPE_EXAMPLE] };

export const LABEL_REQUEST_EXAMPLE = { name: 'Merchant or ATM outside the issuing country' };

export const LABEL_EXAMPLE = { code: 'INTERNATIONAL', name: 'Merchant or ATM outside the issuing country' };

export const LABEL_LIST_EXAMPLE = { items: [LABEL_EXAMPLE] };
