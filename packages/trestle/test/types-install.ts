// A fresh install must type-check. trestle and logline are packed as npm
// would publish them and unpacked into the node_modules of a temporary strict
// project (`skipLibCheck: false`) that has nothing else but @types/node: the
// packages' own dependencies are left out on purpose, so a published
// declaration that needs another package's types (or a dependency's) fails to
// resolve here. A small app per entry (trestle, trestle/v4, trestle/legacy,
// trestle/lambda, logline) is compiled under each module resolution a project may use, in
// ESM and in CommonJS. Four full type-checks of @types/node take longer than
// the suite's minute per file: `npm test` runs this file on its own
// (`npm run test:types-install`), which is why it is not named *.test.ts.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loggerName, pack } from './pack';

const root = join(__dirname, '..', '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** The small app each entry is compiled with, in ESM syntax (`import`) or CommonJS syntax (`import = require`). */
function apps(syntax: 'esm' | 'cjs'): Record<string, string> {
  const load = (name: string, from: string) => (syntax === 'esm' ? `import ${name} from '${from}';` : `import ${name} = require('${from}');`);
  return {
    'v5.ts': `${load('trestle', 'trestle')}
${syntax === 'esm' ? "import { json, type Request as Req } from 'trestle';\nconst parse: ReturnType<typeof json> = json();\nconst read = (req: Req) => req.path;\nvoid parse;\nvoid read;" : ''}
const app = trestle();
app.use(trestle.json(), trestle.static('public'));
app.get('/users/:id', (req, res) => {
  const id: string = req.params.id;
  res.json({ id });
});
app.use((err: unknown, _req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => {
  res.status(500).send(String(err));
});
const router: trestle.Router = trestle.Router();
app.use('/api', router);
`,
    'v4.ts': `${load('trestle', 'trestle/v4')}
const app = trestle();
app.del('/notes/:id?', (req, res) => {
  res.send(200, req.params.id ?? req.param('id'));
});
const handler: trestle.RequestHandler = (_req, res) => res.sendfile('README.md');
app.get('/readme', handler);
`,
    'legacy.ts': `${load('trestle', 'trestle/legacy')}
const app = trestle();
app.configure('development', () => app.use(trestle.logger('dev')));
app.use(trestle.bodyParser());
app.use(app.router);
app.get('/users/:id', (req, res) => res.send(req.accepts('json') ? 200 : 406, req.param('id')));
`,
    'lambda.ts': `${syntax === 'esm' ? "import { lambda, lambdaOf, type LambdaEvent, type LambdaResult } from 'trestle/lambda';" : "import lambdaEntry = require('trestle/lambda');\nconst { lambda, lambdaOf } = lambdaEntry;\ntype LambdaEvent = lambdaEntry.LambdaEvent;\ntype LambdaResult = lambdaEntry.LambdaResult;"}
${load('trestleForLambda', 'trestle')}
const app = trestleForLambda();
app.get('/who', (req, res) => res.json({ id: lambdaOf(req)?.context.awsRequestId ?? null }));
export const handler: (event: LambdaEvent, context: { awsRequestId: string }) => Promise<LambdaResult> = lambda(app, { binary: ['image/*'], basePath: '/api' });
`,
    'logline.ts': `${load('logger', loggerName)}
${load('http', 'node:http')}
const log = logger('combined');
http.createServer((req, res) => log(req, res, () => res.end()));
`,
  };
}

/**
 * The projects: module settings, and the file extensions their ESM and
 * CommonJS apps take (under node16 and nodenext `.mts` is ESM and `.cts`
 * CommonJS whatever the package type, so one program checks both).
 */
const projects = [
  { name: 'node16', module: 'node16', resolution: 'node16', esm: '.mts', cjs: '.cts' },
  { name: 'nodenext', module: 'nodenext', resolution: 'nodenext', esm: '.mts', cjs: '.cts' },
  { name: 'bundler', module: 'preserve', resolution: 'bundler', esm: '.ts', cjs: '.ts' },
  { name: 'node10', module: 'commonjs', resolution: 'node10', esm: '.ts', cjs: '.ts' },
] as const;

/** Packs the package in `dir` into `dest` and unpacks it as `dest/node_modules/<name>`. */
function packInto(dir: string, name: string, dest: string): void {
  const { tarball } = pack(dir, dest);
  const target = join(dest, 'node_modules', name);
  mkdirSync(target, { recursive: true });
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], { encoding: 'utf8', timeout: 60000 });
  assert.equal(untar.status, 0, untar.stderr);
}

function compile(dir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [tsc, '-p', dir], { timeout: 300000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: stdout + stderr });
    });
  });
}

describe('a fresh install of the packed packages type-checks', () => {
  let tmp = '';

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'trestle-types-install-'));
    packInto(join(root, 'packages', 'trestle'), 'trestle', tmp);
    packInto(join(root, 'packages', 'logline'), loggerName, tmp);
    mkdirSync(join(tmp, 'node_modules', '@types'), { recursive: true });
    symlinkSync(join(root, 'node_modules', '@types', 'node'), join(tmp, 'node_modules', '@types', 'node'), 'dir');
    symlinkSync(join(root, 'node_modules', 'undici-types'), join(tmp, 'node_modules', 'undici-types'), 'dir');
    for (const project of projects) {
      const dir = join(tmp, project.name);
      mkdirSync(dir);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: project.name, private: true }));
      // Strict, and every package's declarations checked; TypeScript's own
      // lib files are left unchecked (and without the DOM) to halve the time.
      const compilerOptions = {
        strict: true,
        skipLibCheck: false,
        skipDefaultLibCheck: true,
        lib: ['es2022'],
        noEmit: true,
        esModuleInterop: true,
        target: 'es2022',
        module: project.module,
        moduleResolution: project.resolution,
        types: ['node'],
      };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts', '*.mts', '*.cts'] }));
      for (const syntax of ['esm', 'cjs'] as const) {
        for (const [file, text] of Object.entries(apps(syntax))) writeFileSync(join(dir, `${syntax}-${file.replace('.ts', project[syntax])}`), text);
      }
    }
  });

  after(() => rmSync(tmp, { recursive: true, force: true }));

  for (const project of projects) {
    test(`${project.name} resolution: each entry compiles, imported from ESM and from CommonJS`, async () => {
      const { code, output } = await compile(join(tmp, project.name));
      assert.equal(output, '');
      assert.equal(code, 0);
    });
  }

  test('the check can fail: a wrong type in an app is reported', async () => {
    // The node16 project's settings, its libraries unchecked (they are checked above): only the harness is tested.
    const dir = join(tmp, 'wrong');
    mkdirSync(dir);
    const compilerOptions = { strict: true, skipLibCheck: true, noEmit: true, module: 'node16', moduleResolution: 'node16', types: ['node'] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.mts'] }));
    writeFileSync(join(dir, 'wrong.mts'), "import trestle from 'trestle';\ntrestle().get('/users/:id', (req) => req.params.name);\n");
    const { code, output } = await compile(dir);
    assert.notEqual(code, 0);
    assert.match(output, /wrong\.mts.*Property 'name' does not exist/);
  });
});
