import { isImplementedChannel } from './channels';

describe('channels', () => {
  it('implements WEBHOOK only', () => {
    expect(isImplementedChannel('WEBHOOK')).toBe(true);
    expect(isImplementedChannel('EMAIL')).toBe(false);
  });
});
