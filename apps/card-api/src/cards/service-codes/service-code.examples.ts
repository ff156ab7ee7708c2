export const SERVICE_CODE_EXAMPLE = {
  serviceCode: '10',
  name: 'Account funding',
  meaning: 'VISA only. …',
  networks: ['VISA'],
};

export const SERVICE_CODE_LIST_EXAMPLE = {
  items: [
    {
      serviceCode: '00',
      name: 'POS purchases contact (chip)',
      meaning: '…',
      networks: ['VISA', 'MASTERCARD'],
    },
  ],
};
