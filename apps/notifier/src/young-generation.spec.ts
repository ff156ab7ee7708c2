import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import {
  holdYoungGeneration,
  letYoungGenerationGrow,
  semiSpaceChosen,
  youngGenerationSize,
} from './young-generation';

jest.mock('node:v8', () => ({ setFlagsFromString: jest.fn(), getHeapSpaceStatistics: jest.fn() }));

const MiB = 2 ** 20;
const spaces = (newSpace: number) =>
  [
    { space_name: 'old_space', space_size: 40 * MiB },
    { space_name: 'new_space', space_size: newSpace },
  ] as ReturnType<typeof getHeapSpaceStatistics>;

describe('young generation', () => {
  const env = process.env.NODE_OPTIONS;
  beforeEach(() => {
    jest.mocked(setFlagsFromString).mockClear();
    delete process.env.NODE_OPTIONS;
  });
  afterAll(() => (process.env.NODE_OPTIONS = env));

  describe('semiSpaceChosen', () => {
    it.each([
      [['--max-semi-space-size=16'], '', true],
      [[], '--cpu-prof --semi-space-growth-factor=2', true],
      [['--enable-source-maps'], '--cpu-prof', false],
    ])('%j, %j: %s', (execArgv, nodeOptions, chosen) => {
      const sut = semiSpaceChosen;
      expect(sut(execArgv, nodeOptions)).toBe(chosen);
    });
  });

  it('youngGenerationSize reads the new space', () => {
    const sut = youngGenerationSize;
    expect(sut(spaces(16 * MiB))).toBe(16 * MiB);
  });

  it('holdYoungGeneration stops its growth', () => {
    const sut = holdYoungGeneration;
    sut();
    expect(setFlagsFromString).toHaveBeenCalledWith('--semi-space-growth-factor=1');
  });

  it('letYoungGenerationGrow lets it grow while below the cap, and not once there', () => {
    jest.mocked(getHeapSpaceStatistics).mockReturnValue(spaces(2 * MiB));
    const sut = letYoungGenerationGrow(16 * MiB);
    expect(setFlagsFromString).toHaveBeenLastCalledWith('--semi-space-growth-factor=2');
    sut?.disconnect();

    jest.mocked(setFlagsFromString).mockClear();
    jest.mocked(getHeapSpaceStatistics).mockReturnValue(spaces(16 * MiB));
    letYoungGenerationGrow(16 * MiB)?.disconnect();
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });

  it('letYoungGenerationGrow leaves a semi-space setting of the operator alone', () => {
    process.env.NODE_OPTIONS = '--max-semi-space-size=8';
    jest.mocked(getHeapSpaceStatistics).mockReturnValue(spaces(2 * MiB));
    const sut = letYoungGenerationGrow;
    expect(sut(16 * MiB)).toBeUndefined();
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});
