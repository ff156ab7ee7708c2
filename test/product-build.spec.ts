import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const root = join(__dirname, '..');

/** Where product code lives; everything else (tests, their support, the benchmark) stays out of it. */
const PRODUCT_DIRS = ['apps', 'libs', 'scripts'];
/** Read by the product itself (the version it reports). */
const PRODUCT_FILES = ['package.json'];
const TEST_FILE = /\.(spec|e2e-spec|faults-spec|fixtures)\.(ts|js)$/;

/** Why a repository path may not be part of the product, or null if it may. */
function notProduct(path: string): string | null {
  const [top] = path.split('/');
  if (PRODUCT_FILES.includes(path)) return null;
  if (!PRODUCT_DIRS.includes(top)) return `outside ${PRODUCT_DIRS.join(', ')}`;
  if (TEST_FILE.test(path)) return 'a spec or fixture';
  if (/(^|\/)(test|bench)\//.test(path)) return 'test or bench code';
  return null;
}

/** The repository's files the product tsconfig compiles, imports followed (what `tsc --listFilesOnly` prints). */
function productProgramFiles(): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  // Packages are not the question and would take most of the time to parse: read as empty.
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (fileName, ...rest) =>
    fileName.includes('/node_modules/')
      ? ts.createSourceFile(fileName, '', ts.ScriptTarget.Latest)
      : getSourceFile(fileName, ...rest);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host });
  return program
    .getSourceFiles()
    .map((file) => relative(root, file.fileName).split(sep).join('/'))
    .filter((path) => !path.startsWith('..') && !path.startsWith('node_modules/'));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

describe('the product build', () => {
  it('compiles no test, fixture or bench file, not even through an import', () => {
    const files = productProgramFiles();

    expect(files).toContain('apps/card-api/src/main.ts');
    expect(files.filter((path) => notProduct(path) !== null)).toEqual([]);
  });

  // `npm test` builds first, like the e2e tests that start the apps from dist/.
  it('leaves only product code in dist/, and none of it mentions jest', () => {
    const files = filesUnder(join(root, 'dist'));

    expect(files).toContain('apps/card-api/src/main.js');
    expect(files.filter((path) => notProduct(path) !== null)).toEqual([]);
    const mentionsJest = files.filter(
      (path) => path.endsWith('.js') && /\bjest\b/.test(readFileSync(join(root, 'dist', path), 'utf8')),
    );
    expect(mentionsJest).toEqual([]);
  });

  it('is all the image copies of the build stage', () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    const stages = dockerfile.split(/^FROM /m).slice(1);
    const runtime = stages[stages.length - 1];

    expect(stages[0]).toMatch(/^RUN npm run build && /m);
    expect(runtime.match(/^COPY .*$/gm)).toEqual([
      'COPY --from=build /app/node_modules ./node_modules',
      'COPY --from=build /app/dist ./dist',
      'COPY package.json ./',
    ]);
  });
});
