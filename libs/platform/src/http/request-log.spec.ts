import { BatchedLines } from './request-log';

describe('BatchedLines', () => {
  let written: string[];
  let sut: BatchedLines;

  beforeEach(() => {
    written = [];
    sut = new BatchedLines({ write: (text: string) => written.push(text) });
  });
  afterEach(() => sut.close());

  it('writes the lines of one turn of the event loop together, in order, after the turn', async () => {
    sut.write('a\n');
    sut.write('b\n');
    expect(written).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual(['a\nb\n']);
    sut.write('c\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual(['a\nb\n', 'c\n']);
  });

  it('writes at once when the held lines grow past their bound', () => {
    const long = `${'x'.repeat(40 * 1024)}\n`;
    sut.write(long);
    sut.write(long);
    expect(written).toEqual([long + long]);
  });

  it('writes what it holds when closed', () => {
    sut.write('a\n');
    sut.close();
    expect(written).toEqual(['a\n']);
  });

  it('writes nothing when nothing is held', async () => {
    sut.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual([]);
  });
});
