import { SERVICE_CODE_VALUES } from './service-codes';

describe('service-code catalog', () => {
  it('holds the 13 codes of the specification in its order', () => {
    expect(SERVICE_CODE_VALUES).toEqual([
      '00',
      '0A',
      '0C',
      '0M',
      '01',
      '09',
      '10',
      '11',
      '20',
      '21',
      '28',
      '30',
      '39',
    ]);
  });
});
