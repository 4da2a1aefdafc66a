// Every error trestle makes carries a stable `code` (docs/errors.md), with
// Express's class, name and message: over HTTP for errors passed to next(),
// at the call for programmer errors; and the page and the code table agree.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import trestle, { type Application, type ErrorRequestHandler, type RequestHandler } from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { ERROR_CODES, EXPRESS_CODES } from '../src/errors';

const ROOT = join(__dirname, '..', '..', '..');
const SRC = join(__dirname, '..', 'src');
const PAGE = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();

describe('docs/errors.md and the code table', () => {
  test('the page lists exactly the TRESTLE_ERR_ codes of ERROR_CODES', () => {
    assert.deepEqual(sorted(PAGE.match(/TRESTLE_ERR_[A-Z0-9_]+/g) ?? []), sorted(Object.keys(ERROR_CODES)));
  });

  test('"Codes kept for Express" lists exactly EXPRESS_CODES', () => {
    const section = PAGE.split(/^## /m).find((part) => part.startsWith('Codes kept for Express'));
    assert.ok(section, 'the page has a "Codes kept for Express" section');
    const listed = [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]!);
    assert.deepEqual(sorted(listed), sorted(Object.keys(EXPRESS_CODES)));
  });

  test('every TRESTLE_ERR_ code in the source is in the table, and every code in the table is used', () => {
    const used = new Set<string>();
    for (const file of sources(SRC)) {
      if (file === join(SRC, 'errors.ts')) continue;
      for (const code of readFileSync(file, 'utf8').match(/TRESTLE_ERR_[A-Z0-9_]+/g) ?? []) used.add(code);
    }
    assert.deepEqual(sorted(used), sorted(Object.keys(ERROR_CODES)));
  });
});

interface Report {
  class: string;
  name: string;
  message: string;
  code?: string;
  status?: number;
  statusCode?: number;
  expose: boolean | 'absent';
  type?: string;
  [detail: string]: unknown;
}

/** Answers any error with 520 and what an error handler can read on it. */
const report: ErrorRequestHandler = (err, _req, res, _next) => {
  const e = err as Error & Record<string, unknown>;
  const details: Record<string, unknown> = {};
  for (const key of ['limit', 'types', 'charset', 'body'] as const) if (key in e) details[key] = e[key];
  res.status(520).json({
    class: e.constructor.name,
    name: e.name,
    message: e.message,
    code: e.code,
    status: e.status,
    statusCode: e.statusCode,
    expose: 'expose' in e ? e.expose : 'absent',
    type: e.type,
    ...details,
    stack: String(e.stack).split('\n').slice(0, 2),
  });
};

function appWith(setup: (app: Application) => void): Application {
  const app = trestle();
  setup(app);
  app.use(report);
  return app;
}

async function reported(app: Application, send: (agent: ReturnType<typeof request>) => request.Test): Promise<Report> {
  const res = await send(request(app)).expect(520);
  const { stack: _stack, ...body } = res.body as Report;
  return body as Report;
}

describe('HTTP errors reach the error handler with code, status, type and details', () => {
  const bodies = appWith((app) => {
    app.post('/json', trestle.json({ limit: 10 }), (_req, res) => res.end());
    app.post('/form', trestle.urlencoded({ parameterLimit: 2 }), (_req, res) => res.end());
  });

  test('413 from json() over its limit', async () => {
    const body = await reported(bodies, (r) => r.post('/json').type('json').send('{"a":"0123456789"}'));
    assert.deepEqual(body, {
      class: 'PayloadTooLargeError',
      name: 'PayloadTooLargeError',
      message: 'request entity too large',
      code: 'TRESTLE_ERR_ENTITY_TOO_LARGE',
      status: 413,
      statusCode: 413,
      expose: true,
      type: 'entity.too.large',
      limit: 10,
    });
  });

  test('400 from json() for malformed JSON: still the SyntaxError of JSON.parse', async () => {
    const body = await reported(bodies, (r) => r.post('/json').type('json').send('{bad'));
    assert.equal(body.class, 'SyntaxError');
    assert.equal(body.name, 'SyntaxError');
    assert.equal(body.message, messageOf(() => JSON.parse('{bad')));
    assert.equal(body.code, 'TRESTLE_ERR_ENTITY_PARSE_FAILED');
    assert.equal(body.status, 400);
    assert.equal(body.expose, true);
    assert.equal(body.type, 'entity.parse.failed');
    assert.equal(body.body, '{bad');
  });

  test('400 from json() in strict mode for a primitive', async () => {
    const body = await reported(bodies, (r) => r.post('/json').type('json').send('"x"'));
    assert.equal(body.class, 'SyntaxError');
    assert.equal(body.code, 'TRESTLE_ERR_ENTITY_PARSE_FAILED');
    assert.equal(body.type, 'entity.parse.failed');
  });

  test('415 from json() for a charset it does not take', async () => {
    const body = await reported(bodies, (r) => r.post('/json').set('Content-Type', 'application/json; charset=latin1').send('{}'));
    assert.deepEqual(body, {
      class: 'UnsupportedMediaTypeError',
      name: 'UnsupportedMediaTypeError',
      message: 'unsupported charset "LATIN1"',
      code: 'TRESTLE_ERR_CHARSET_UNSUPPORTED',
      status: 415,
      statusCode: 415,
      expose: true,
      type: 'charset.unsupported',
      charset: 'latin1',
    });
  });

  test('415 for an unknown Content-Encoding', async () => {
    const body = await reported(bodies, (r) => r.post('/json').type('json').set('Content-Encoding', 'bogus').send('{}'));
    assert.equal(body.code, 'TRESTLE_ERR_ENCODING_UNSUPPORTED');
    assert.equal(body.status, 415);
    assert.equal(body.type, 'encoding.unsupported');
  });

  test('413 from urlencoded() past parameterLimit', async () => {
    const body = await reported(bodies, (r) => r.post('/form').type('form').send('a=1&b=2&c=3'));
    assert.equal(body.name, 'PayloadTooLargeError');
    assert.equal(body.code, 'TRESTLE_ERR_PARAMETERS_TOO_MANY');
    assert.equal(body.type, 'parameters.too.many');
    assert.equal(body.message, 'too many parameters');
  });

  test('an error that has a code of its own keeps it: a corrupt gzip body, an error thrown by verify', async () => {
    const corrupt = await reported(bodies, (r) => r.post('/json').type('json').set('Content-Encoding', 'gzip').send('not gzip'));
    assert.equal(corrupt.code, 'Z_DATA_ERROR');
    assert.equal(corrupt.status, 400);
    const verified = (code?: string) =>
      appWith((app) => {
        const verify = () => {
          throw Object.assign(new Error('refused'), code === undefined ? {} : { code });
        };
        app.post('/', trestle.json({ verify }), (_req, res) => res.end());
      });
    const own = await reported(verified('E_MINE'), (r) => r.post('/').type('json').send('{}'));
    assert.equal(own.code, 'E_MINE');
    assert.equal(own.status, 403);
    assert.equal(own.type, 'entity.verify.failed');
    const plain = await reported(verified(), (r) => r.post('/').type('json').send('{}'));
    assert.equal(plain.code, 'TRESTLE_ERR_ENTITY_VERIFY_FAILED');
    assert.equal(plain.message, 'refused');
  });

  test("the stack names the error and starts where it was made, not in trestle's errors module", async () => {
    const res = await request(bodies).post('/json').type('json').send('{"a":"0123456789"}').expect(520);
    const [head, top] = (res.body as { stack: string[] }).stack;
    assert.equal(head, 'PayloadTooLargeError: request entity too large');
    assert.match(top!, /middleware[\\/]body\.[jt]s/);
  });

  test('without an error handler the default page answers with the status', async () => {
    const app = trestle();
    app.post('/', trestle.json({ limit: 10 }), (_req, res) => res.end());
    await request(app).post('/').type('json').send('{"a":"0123456789"}').expect(413);
  });

  test('400 for a route parameter with bad percent-encoding: the URIError, with a status and no expose, as Express', async () => {
    const app = appWith((a) => a.get('/users/:id', (_req, res) => res.end()));
    const body = await reported(app, (r) => r.get('/users/%E0%A4%A'));
    assert.deepEqual(body, {
      class: 'URIError',
      name: 'URIError',
      message: "Failed to decode param '%E0%A4%A'",
      code: 'TRESTLE_ERR_PARAM_DECODE_FAILED',
      status: 400,
      statusCode: 400,
      expose: 'absent',
    });
  });

  test('406 from res.format() with the types on offer', async () => {
    const app = appWith((a) => a.get('/', (_req, res) => res.format({ json: () => res.send('{}'), 'text/html': () => res.send('<p>') })));
    const body = await reported(app, (r) => r.get('/').set('Accept', 'image/png'));
    assert.deepEqual(body, {
      class: 'NotAcceptableError',
      name: 'NotAcceptableError',
      message: 'Not Acceptable',
      code: 'TRESTLE_ERR_NOT_ACCEPTABLE',
      status: 406,
      statusCode: 406,
      expose: true,
      types: ['application/json', 'text/html'],
    });
  });

  test('a promise rejected without a reason', async () => {
    const app = appWith((a) => a.get('/', () => Promise.reject(undefined)));
    const body = await reported(app, (r) => r.get('/'));
    assert.equal(body.class, 'Error');
    assert.equal(body.message, 'Rejected promise');
    assert.equal(body.code, 'TRESTLE_ERR_PROMISE_REJECTED');
  });

  test('a promise rejected with a falsy reason is an error too, as in Express', async () => {
    const app = appWith((a) => {
      a.get('/', () => Promise.reject(0));
      a.get('/', (_req, res) => res.send('not reached'));
    });
    const body = await reported(app, (r) => r.get('/'));
    assert.equal(body.code, 'TRESTLE_ERR_PROMISE_REJECTED');
  });

  test('render errors passed to next(): no view engine, no such view', async () => {
    const app = appWith((a) => {
      a.set('views', join(__dirname, 'fixtures'));
      a.get('/bare', (_req, res) => res.render('page'));
      a.get('/missing', (_req, res) => res.render('no-such-view.ejs'));
    });
    const bare = await reported(app, (r) => r.get('/bare'));
    assert.equal(bare.class, 'Error');
    assert.equal(bare.message, 'No default engine was specified and no extension was provided.');
    assert.equal(bare.code, 'TRESTLE_ERR_VIEW_ENGINE_REQUIRED');
    const missing = await reported(app, (r) => r.get('/missing'));
    assert.equal(missing.message, `Failed to lookup view "no-such-view.ejs" in views directory "${join(__dirname, 'fixtures')}"`);
    assert.equal(missing.code, 'TRESTLE_ERR_VIEW_NOT_FOUND');
  });
});

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  return '';
}

/** Calls the tests make on purpose with arguments the types refuse. */
const untyped = (target: object) => target as Record<string, (...args: unknown[]) => unknown>;

describe('programmer errors keep Express class and message, and carry a code', () => {
  test('thrown by req and res members inside a handler', async () => {
    const cases: Array<[RequestHandler, string, string, string]> = [
      [(_req, res) => res.status('200' as unknown as number).end(), 'TypeError', 'Invalid status code: "200". Status code must be an integer.', 'TRESTLE_ERR_INVALID_STATUS_CODE'],
      [(_req, res) => res.status(1000).end(), 'RangeError', 'Invalid status code: 1000. Status code must be greater than 99 and less than 1000.', 'TRESTLE_ERR_INVALID_STATUS_CODE'],
      [(req, res) => res.send(req.get(undefined as unknown as string)), 'TypeError', 'name argument is required to req.get', 'TRESTLE_ERR_MISSING_ARG'],
      [(_req, res) => res.sendFile('relative.txt'), 'TypeError', 'path must be absolute or specify root to res.sendFile', 'TRESTLE_ERR_INVALID_ARG_VALUE'],
      [(_req, res) => res.cookie('a', 'b', { signed: true }).end(), 'Error', 'cookieParser("secret") required for signed cookies', 'TRESTLE_ERR_COOKIE_SECRET_REQUIRED'],
    ];
    for (const [handler, name, message, code] of cases) {
      const body = await reported(appWith((app) => app.get('/', handler)), (r) => r.get('/'));
      assert.deepEqual([body.class, body.message, body.code], [name, message, code]);
    }
  });

  test('thrown at the call that sets an app up', () => {
    const cases: Array<[() => unknown, ErrorConstructor | TypeErrorConstructor, string, string]> = [
      [() => trestle().use(), TypeError, 'app.use() requires a middleware function', 'TRESTLE_ERR_MISSING_ARG'],
      [() => trestle().use('/x', 1 as never), TypeError, 'argument handler must be a function', 'TRESTLE_ERR_ROUTER_HANDLER'],
      [() => trestle.Router().param(undefined as never, () => {}), TypeError, 'argument name is required', 'TRESTLE_ERR_MISSING_ARG'],
      [() => untyped(trestle.Router()).param(() => {}), TypeError, 'argument name must be a string', 'TRESTLE_ERR_INVALID_ARG_TYPE'],
      [() => untyped(trestle.Router().route('/')).get(), TypeError, 'argument handler is required', 'TRESTLE_ERR_MISSING_ARG'],
      [() => trestle().get(5 as never, () => {}), TypeError, 'path must be a string, a regular expression or an array of them, got [object Number]', 'TRESTLE_ERR_INVALID_ARG_TYPE'],
      [() => trestle.json({ limit: 'huge' }), TypeError, 'option limit "huge" is invalid', 'TRESTLE_ERR_INVALID_OPTION'],
      [() => trestle.static(undefined as never), TypeError, 'root path required', 'TRESTLE_ERR_MISSING_ARG'],
      [() => trestle().set('etag', 'bogus' as never), TypeError, 'unknown value for etag function: bogus', 'TRESTLE_ERR_INVALID_SETTING'],
      [() => trestle().engine('x', 1 as never), Error, 'callback function required', 'TRESTLE_ERR_INVALID_ARG_TYPE'],
      [() => (trestleV4() as unknown as { router: unknown }).router, Error, "'app.router' is deprecated!\nPlease see the 3.x to 4.x migration guide for details on how to update your app.", 'TRESTLE_ERR_REMOVED_IN_V4'],
      [() => (trestleLegacy() as unknown as { configure(fn: unknown): unknown }).configure(1), TypeError, 'app.configure() requires a callback function', 'TRESTLE_ERR_INVALID_ARG_TYPE'],
    ];
    for (const [call, Class, message, code] of cases) {
      assert.throws(call, (err: Error & { code?: string }) => {
        assert.equal(err.constructor, Class);
        assert.deepEqual([err.message, err.code], [message, code]);
        return true;
      });
    }
  });
});
