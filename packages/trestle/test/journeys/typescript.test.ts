// A strict Express 5 TypeScript app, switched to trestle by the README's alias
// recipe, compiles unchanged. The app is written against @types/express and
// the real @types packages of sixteen common middleware, with
// `strict` on and `skipLibCheck` off, and augments Express's types both ways
// the ecosystem does (`declare module 'express'` and the global `Express`
// namespace). The control: it compiles in a temp project with the real
// express@5 and @types/express; then the same files compile in a sibling
// project where `express` is trestle's tarball (logline's beside it), under
// node16, nodenext and bundler resolution, with the repository's tsc.
// Also compiled under the alias: trestle's typed routes (params from the
// path), the strict opt-in (`req.body` becomes `unknown`: TS18046 where the
// app reads it untyped; cookies possibly `undefined`: TS18048), and what an augmentation of
// 'express-serve-static-core' reaches (real Express's inline `req`; not
// trestle's: docs/types.md says why and what to write instead).
// About 50 s (nine tsc runs, two at a time): CI runs it on Node 20 only
// (.ci/run), since tsc's verdict does not depend on the Node running it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { root } from '../pack';
import { freshProject, npmInstall, packAll } from './install-helpers';

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** The @types packages the app compiles with: sixteen middleware, their dependencies come along (@types/express among them). */
const typesPackages = [
  '@types/node@20', '@types/express@5',
  '@types/body-parser', '@types/compression', '@types/connect-flash', '@types/connect-timeout', '@types/cookie-parser',
  '@types/cors', '@types/csurf', '@types/express-brute', '@types/express-session', '@types/method-override',
  '@types/morgan', '@types/multer', '@types/passport', '@types/passport-local', '@types/response-time', '@types/serve-favicon',
];

/** What the app adds to Express's types: `declare module 'express'` (as @types/cookie-parser does) and the global namespace (as passport's and multer's do). */
const augment = `import 'express';
import 'express-session';

export interface Tenant {
  id: string;
  plan: 'free' | 'pro';
}

declare module 'express' {
  interface Request {
    tenant?: Tenant;
  }
  interface Response {
    sendTenant?: () => void;
  }
}

declare module 'express-session' {
  interface SessionData {
    views: number;
  }
}

declare global {
  namespace Express {
    interface User {
      id: string;
      name: string;
    }
    interface Request {
      requestId: string;
    }
    interface Response {
      startedAt?: number;
    }
    interface Locals {
      nonce: string;
    }
  }
}
`;

/** The app, as written against @types/express. */
const app = `import express, { type NextFunction, type Request, type RequestHandler, type Response, type ErrorRequestHandler } from 'express';
import bodyParser from 'body-parser';
import compression from 'compression';
import cookieParser from 'cookie-parser';
import cors from 'cors';
import csrf from 'csurf';
import flash from 'connect-flash';
import ExpressBrute from 'express-brute';
import favicon from 'serve-favicon';
import methodOverride from 'method-override';
import morgan from 'morgan';
import multer from 'multer';
import passport from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import responseTime from 'response-time';
import session from 'express-session';
import timeout from 'connect-timeout';
import type { Tenant } from './augment';

const app = express();
const upload = multer({ storage: multer.memoryStorage() });
const brute = new ExpressBrute(new ExpressBrute.MemoryStore());

passport.use(new LocalStrategy((username, password, done) => {
  if (password !== 'secret') return done(null, false, { message: 'wrong password' });
  return done(null, { id: username, name: username.toUpperCase() });
}));
passport.serializeUser((user, done) => done(null, user.id));
passport.deserializeUser((id: string, done) => done(null, { id, name: id }));

const requestId: RequestHandler = (req, res, next) => {
  req.requestId = String(Date.now());
  res.startedAt = Date.now();
  res.locals.nonce = req.requestId;
  next();
};

function withTenant(req: Request, res: Response, next: NextFunction): void {
  const tenant: Tenant = { id: req.get('x-tenant') ?? 'public', plan: 'free' };
  req.tenant = tenant;
  res.sendTenant = () => {
    res.json(req.tenant);
  };
  next();
}

app.use(timeout('5s'));
app.use(responseTime());
app.use(morgan('combined'));
app.use(cors({ origin: ['https://example.com'], credentials: true }));
app.use(compression());
app.use(favicon(__filename));
app.use(bodyParser.json());
app.use(bodyParser.urlencoded({ extended: false }));
app.use(express.json());
app.use(methodOverride('_method'));
app.use(cookieParser('cookie secret'));
app.use(session({ secret: 'session secret', resave: false, saveUninitialized: false }));
app.use(flash());
app.use(passport.initialize());
app.use(passport.session());
app.use(requestId, withTenant);

app.get('/', (req, res) => {
  const views = (req.session.views ?? 0) + 1;
  req.session.views = views;
  const theme: string | undefined = req.cookies.theme;
  const signed = req.signedCookies.remember;
  const messages: string[] = req.flash('info');
  res.flush();
  res.json({ views, theme, signed, messages, id: req.requestId, timedout: req.timedout, at: res.startedAt });
});

app.get('/users/:id', (req, res) => {
  const id: string = req.params.id;
  const nonce: string = res.locals.nonce;
  res.send({ id, nonce });
});

app.post('/login', brute.prevent, passport.authenticate('local', { failureRedirect: '/login', failureFlash: true }), (req, res) => {
  const user: Express.User | undefined = req.user;
  res.json({ name: user?.name, csrf: req.csrfToken() });
});

app.post('/form', csrf({ cookie: true }), (req, res) => {
  res.send(req.csrfToken());
});

app.post('/avatar/:user', upload.single('avatar'), (req, res) => {
  const size: number | undefined = req.file?.size;
  const name: string = req.body.name;
  if (req.timedout) return;
  res.status(201).json({ size, name, user: req.params.user });
});

app.post('/photos', upload.array('photos', 4), (req, res) => {
  const files = req.files as Express.Multer.File[];
  res.json(files.map((f) => f.originalname));
});

function me(req: Request, res: Response, next: NextFunction): void {
  if (!req.isAuthenticated()) return next();
  if (req.tenant?.plan === 'pro') res.sendTenant?.();
  else res.json({ user: req.user?.name });
}
app.get('/me', me);

app.post('/logout', (req, res, next) => {
  req.logout((err) => {
    if (err) return next(err);
    req.session.destroy(() => res.redirect('/'));
  });
});

const router = express.Router();
router.get('/items/:itemId', (req, res) => {
  res.json({ item: req.params.itemId, user: req.user?.id });
});
app.use('/api', router);

const onError: ErrorRequestHandler = (err, req, res, _next) => {
  res.status(err.status ?? 500).json({ message: err.message, id: req.requestId });
};
app.use(onError);
app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
  res.status(500).send(err.message);
});

export default app;
`;

/** Under the alias only: trestle's routes type `req.params` from the path (each `@ts-expect-error` must fail to compile). */
const params = `import express from 'express';

const app = express();
app.get('/users/:userId/books{/:isbn}', (req, res) => {
  const user: string = req.params.userId;
  const isbn: string | undefined = req.params.isbn;
  // @ts-expect-error -- isbn is optional in this path
  const sure: string = req.params.isbn;
  // @ts-expect-error -- no :id in this path
  res.send(req.params.id ?? user + sure);
});
app.get('/files/*path', (req, res) => {
  const segments: string[] = req.params.path;
  res.send(segments.join('/'));
});
express.Router().route('/orders/:orderId').get((req, res) => {
  // @ts-expect-error -- the order's id is a string
  const n: number = req.params.orderId;
  res.send(String(n));
});
`;

/** The app's opt-in to trestle's stricter types. */
const strict = `export {};
declare global {
  namespace Trestle {
    interface TypeOptions {
      strict: true;
    }
  }
}
`;

/** An app's augmentation of 'express-serve-static-core' (a common pattern), and @types/express-brute's own (\`req.brute\`), read from inline handlers. */
const essc = `import express from 'express';
import ExpressBrute from 'express-brute';

declare module 'express-serve-static-core' {
  interface Request {
    auth?: { sub: string };
  }
}

const brute = new ExpressBrute(new ExpressBrute.MemoryStore());
express().get('/essc', brute.prevent, (req, res) => {
  const sub: string | undefined = req.auth?.sub;
  const reset = req.brute?.reset;
  res.send({ sub, reset: typeof reset });
});
`;

const modes = { node16: 'node16', nodenext: 'nodenext', bundler: 'esnext' } as const;
type Mode = keyof typeof modes;

/** Writes the sources and one tsconfig per program (strict, skipLibCheck off, every @types package visible, as tsc's default). */
function writeProject(dir: string, extra: Record<string, string>): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'checks'), { recursive: true });
  writeFileSync(join(dir, 'src', 'augment.ts'), augment);
  writeFileSync(join(dir, 'src', 'app.ts'), app);
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, 'checks', name), text);
}

function tsconfig(dir: string, name: string, mode: Mode, files: string[]): string {
  const compilerOptions = { target: 'ES2022', module: modes[mode], moduleResolution: mode, strict: true, skipLibCheck: false, esModuleInterop: true, noEmit: true };
  writeFileSync(join(dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files }, null, 2));
  return `tsconfig.${name}.json`;
}

interface Compiled {
  code: number | null;
  /** `file:line TSnnnn` for each error tsc reported. */
  errors: string[];
  output: string;
}

/** Runs the real tsc on one tsconfig, bounded to 3 minutes. */
function compile(dir: string, config: string): Promise<Compiled> {
  return new Promise((resolve) => {
    execFile(process.execPath, [tsc, '-p', config, '--pretty', 'false'], { cwd: dir, timeout: 180_000 }, (err, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      const errors = [...output.matchAll(/^(\S+)\((\d+),\d+\): error (TS\d+)/gm)].map((m) => `${m[1]}:${m[2]} ${m[3]}`);
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, errors, output: err?.killed ? `tsc killed after 180 s\n${output}` : output });
    });
  });
}

/** Runs `jobs` two at a time (the machine's cores); each result's promise settles as its run does. */
function pool<T>(jobs: Array<() => Promise<T>>, width = 2): Array<Promise<T>> {
  const starts: Array<() => void> = [];
  const results = jobs.map((job, i) => new Promise<void>((go) => { starts[i] = go; }).then(job));
  let next = 0;
  const kick = (): void => {
    if (next >= jobs.length) return;
    const i = next++;
    starts[i]!();
    void results[i]!.finally(kick);
  };
  for (let i = 0; i < width; i++) kick();
  return results;
}

/** The 1-based lines of `text` that match `pattern`, as `file:line`. */
function linesOf(file: string, text: string, pattern: RegExp): string[] {
  return text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}`] : []));
}

describe('a strict Express 5 TypeScript app compiles unchanged under the alias', { timeout: 420_000 }, () => {
  let tmp = '';
  const results = new Map<string, Promise<Compiled>>();

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'trestle-journey-typescript-'));
    const packed = packAll(join(tmp, 'packs'));
    const alias = packed.installs.find((args) => args.some((a) => a.startsWith('express@file:')));
    assert.ok(alias, `npm run pack printed no alias install:\n${packed.printed}`);
    const control = freshProject(join(tmp, 'control'), 'control-app');
    const aliased = freshProject(join(tmp, 'alias'), 'alias-app');
    npmInstall(control, ['express@5', ...typesPackages]);
    npmInstall(aliased, [...alias, ...typesPackages]);
    writeProject(control, { 'essc.ts': essc });
    writeProject(aliased, { 'params.ts': params, 'strict.ts': strict, 'essc.ts': essc });
    const app = ['src/augment.ts', 'src/app.ts'];
    const jobs: Array<[string, string, string]> = [];
    for (const mode of Object.keys(modes) as Mode[]) {
      jobs.push([`control ${mode}`, control, tsconfig(control, mode, mode, app)]);
      jobs.push([`alias ${mode}`, aliased, tsconfig(aliased, mode, mode, [...app, 'checks/params.ts'])]);
    }
    jobs.push(['alias strict', aliased, tsconfig(aliased, 'strict', 'node16', [...app, 'checks/strict.ts'])]);
    jobs.push(['control essc', control, tsconfig(control, 'essc', 'node16', ['checks/essc.ts'])]);
    jobs.push(['alias essc', aliased, tsconfig(aliased, 'essc', 'node16', ['checks/essc.ts'])]);
    const started = pool(jobs.map(([, dir, config]) => () => compile(dir, config)));
    jobs.forEach(([name], i) => results.set(name, started[i]!));
  }, { timeout: 420_000 });

  after(async () => {
    await Promise.allSettled(results.values());
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const clean = async (name: string): Promise<void> => {
    const result = await results.get(name)!;
    assert.deepEqual(result.errors, [], `${name}: tsc reported errors:\n${result.output}`);
    assert.equal(result.code, 0, `${name}: tsc exited ${result.code}:\n${result.output}`);
  };

  for (const mode of Object.keys(modes) as Mode[]) {
    test(`control: the app compiles against express@5 and @types/express (${mode})`, () => clean(`control ${mode}`));
    test(`the same files compile against trestle under the alias, typed routes checked too (${mode})`, () => clean(`alias ${mode}`));
  }

  test('the strict opt-in makes req.body and an untyped err unknown (TS18046), cookies possibly undefined (TS18048), exactly where the app reads them', async () => {
    const result = await results.get('alias strict')!;
    const expected = [
      ...linesOf('src/app.ts', app, /req\.body\.|\berr\.status/).map((at) => `${at} TS18046`),
      ...linesOf('src/app.ts', app, /req\.(signedCookies|cookies)\./).map((at) => `${at} TS18048`),
    ];
    assert.equal(expected.length, 4, 'the app reads req.body once, an untyped err once, cookies twice');
    // One error per read (err.status and err.message share one line).
    assert.deepEqual([...new Set(result.errors)].sort(), expected.sort(), result.output);
  });

  test("an augmentation of 'express-serve-static-core' reaches real Express's inline req, not trestle's (TS2339 there)", async () => {
    await clean('control essc');
    const result = await results.get('alias essc')!;
    // TS2339 "does not exist", or TS2551, the same with "did you mean 'route'?".
    const expected = linesOf('checks/essc.ts', essc, /req\.(auth|brute)\b/).map((at) => `${at} TS2339`);
    assert.deepEqual(result.errors.map((e) => e.replace('TS2551', 'TS2339')).sort(), expected.sort(), result.output);
  });
});
