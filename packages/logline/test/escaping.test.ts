// No forged log lines: what a client sends is escaped before it joins a line,
// in every predefined format, in compiled formats and through the tokens of
// format functions, the way morgan writes it. Each request goes to a server
// logging with morgan and with logline, and the lines are compared byte for
// byte; where morgan still writes something raw, logline's line stays one line.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, test, type TestContext } from 'node:test';
import fc from 'fast-check';
import morgan from 'morgan';
import logger from 'logline-http';
import { LineSink, send, serve, type Middleware } from './helpers.js';
import { basicAuth, rawGet, rawRequest, serveTwins, withoutDurations, type Twin, type TwinFormat } from './twins.js';

/** 10 Oct 2000 13:55:36 UTC: both loggers read this one clock, so their dates agree. */
const NOW = Date.UTC(2000, 9, 10, 13, 55, 36);
const CLF = '[10/Oct/2000:13:55:36 +0000]';

function fixClock(t: TestContext): void {
  t.mock.timers.enable({ apis: ['Date'], now: NOW });
}

/** Answers 200 with a two-byte body, echoing the X-Echo request header as a response header. */
function answer(req: IncomingMessage, res: ServerResponse): void {
  const echo = req.headers['x-echo'];
  if (typeof echo === 'string') res.setHeader('X-Echo', echo);
  send(res, 200, 'ok');
}

/** What a framework does behind a trusted proxy: req.ip is the first X-Forwarded-For entry. */
const proxyAwareIp: Middleware = (req, res, next) => {
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string') (req as IncomingMessage & { ip?: string }).ip = forwarded.split(',')[0]!.trim();
  next();
};

/** Serves `formats` twice (morgan, logline), sends each request, and returns each twin's lines. */
async function linesOf(formats: TwinFormat[], requests: Array<(url: string) => Promise<string>>): Promise<Twin[]> {
  const app = await serveTwins(formats, answer, [proxyAwareIp]);
  try {
    for (const sendOne of requests) assert.match(await sendOne(app.url), /^HTTP\/1\.1 200 /);
    await app.settled(requests.length);
    for (const twin of app.twins) {
      await twin.morgan.waitForWrites(requests.length);
      await twin.logline.waitForWrites(requests.length);
    }
    return app.twins;
  } finally {
    await app.close();
  }
}

/** One line for one request, the same as morgan's; returns it without its newline. */
function sameOneLine(twin: Twin): string {
  assert.equal(twin.logline.writes.length, 1);
  const line = twin.logline.writes[0]!;
  assert.equal(withoutDurations(line), withoutDurations(twin.morgan.writes[0]!), 'the line is morgan’s');
  assert.equal(line.indexOf('\n'), line.length - 1, `one line: ${JSON.stringify(line)}`);
  return line.slice(0, -1);
}

/** Raw bytes no line may hold (dev's own colour codes are taken out first). */
const RAW_CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/;
const DEV_COLOURS = /\x1b\[\d+m/g;

describe('forged lines on combined', () => {
  test('a Basic user name with a newline writes one line, the newline escaped (the :remote-user advisory)', async (t) => {
    fixClock(t);
    const [twin] = await linesOf(['combined'], [(url) => rawGet(url, '/', { Authorization: basicAuth('ann\nGET /admin 200') })]);
    assert.equal(sameOneLine(twin!), `127.0.0.1 - ann\\nGET /admin 200 ${CLF} "GET / HTTP/1.1" 200 2 "-" "-"`);
  });

  test('CR, ESC, NUL, DEL, a C1 control and U+2028 in the user name are escaped', async (t) => {
    fixClock(t);
    const user = 'a\rb\x1b[31mc\x00d\x7fe\x85f\u2028g';
    const [twin] = await linesOf(['combined'], [(url) => rawGet(url, '/', { Authorization: basicAuth(user) })]);
    assert.equal(
      sameOneLine(twin!),
      `127.0.0.1 - a\\rb\\u001b[31mc\\u0000d\\u007fe\\u0085f\\u2028g ${CLF} "GET / HTTP/1.1" 200 2 "-" "-"`,
    );
  });

  test('C1 controls (NEL, CSI) in User-Agent, Referer and X-Forwarded-For are escaped', async (t) => {
    fixClock(t);
    const [twin] = await linesOf(
      ['combined'],
      [
        (url) =>
          rawGet(url, '/', {
            'User-Agent': 'agent\x85\x9b2J',
            Referer: 'http://x/\x9b31m',
            'X-Forwarded-For': '10.0.0.1\x85\x9bK, 127.0.0.1',
          }),
      ],
    );
    assert.equal(
      sameOneLine(twin!),
      `10.0.0.1\\u0085\\u009bK - - ${CLF} "GET / HTTP/1.1" 200 2 "http://x/\\u009b31m" "agent\\u0085\\u009b2J"`,
    );
  });

  test('a double quote or a backslash in the URL, Referer or User-Agent cannot close its field', async (t) => {
    fixClock(t);
    const [twin] = await linesOf(
      ['combined'],
      [
        (url) =>
          rawGet(url, '/a"b\\"404"x', {
            Referer: 'r" 500 0 "fake-referrer',
            'User-Agent': 'ua\\" "forged-agent',
          }),
      ],
    );
    const line = sameOneLine(twin!);
    assert.equal(
      line,
      `127.0.0.1 - - ${CLF} "GET /a\\"b\\\\\\"404\\"x HTTP/1.1" 200 2 "r\\" 500 0 \\"fake-referrer" "ua\\\\\\" \\"forged-agent"`,
    );
    // Read as a combined-log parser reads it, with \" and \\ inside quotes:
    const quoted = '"((?:[^"\\\\]|\\\\.)*)"';
    const fields = new RegExp(`^(\\S+) - (\\S+) \\[([^\\]]+)\\] ${quoted} (\\d{3}) (\\S+) ${quoted} ${quoted}$`).exec(line);
    assert.ok(fields, line);
    assert.deepEqual(fields.slice(4), [
      'GET /a\\"b\\\\\\"404\\"x HTTP/1.1',
      '200',
      '2',
      'r\\" 500 0 \\"fake-referrer',
      'ua\\\\\\" \\"forged-agent',
    ]);
  });
});

/** A request with something to escape in every field the standard formats read. */
const hostile = (url: string): Promise<string> =>
  rawGet(url, '/p"q\\r', {
    Authorization: basicAuth('u\n"\\\u2029'),
    'User-Agent': 'ua"\\\t\x85\xff',
    Referer: 'ref\x9b"',
    'X-Forwarded-For': '1.2.3.4\t\x9b',
  });

describe('every predefined format', () => {
  for (const name of ['combined', 'common', 'short', 'tiny', 'dev', 'default']) {
    test(`${name} writes the hostile request as one line, as morgan does`, async (t) => {
      fixClock(t);
      const [twin] = await linesOf([name], [hostile]);
      const line = sameOneLine(twin!);
      assert.doesNotMatch(line.replace(DEV_COLOURS, ''), RAW_CONTROL);
      assert.match(line, /\/p\\"q\\\\r/, 'the URL is escaped');
    });
  }
});

describe('formats users write', () => {
  test('a format string compiled by logline escapes every token, as morgan does', async (t) => {
    fixClock(t);
    const [twin] = await linesOf(
      [':req[x-note] [:res[x-echo]] :remote-user :url'],
      [(url) => rawGet(url, '/u"', { 'X-Note': 'note\x85"', 'X-Echo': 'echo\\\x9b', Authorization: basicAuth('\x1b') })],
    );
    assert.equal(sameOneLine(twin!), 'note\\u0085\\" [echo\\\\\\u009b] \\u001b /u\\"');
  });

  test('a format function gets escaped values from the tokens object, and from logger.compile', async (t) => {
    fixClock(t);
    const compiled = logger.compile(':referrer');
    const mine: logger.FormatFn = (tokens, req, res) =>
      [tokens['user-agent']!(req, res), tokens.req!(req, res, 'x-note'), compiled(tokens, req, res)].join(' | ');
    // morgan cannot run logline's compiled function: each side gets its own.
    const morganCompiled = morgan.compile(':referrer');
    const theirs = (tokens: morgan.TokenIndexer, req: IncomingMessage, res: ServerResponse): string =>
      [tokens['user-agent'](req, res), tokens.req(req, res, 'x-note'), morganCompiled(tokens, req, res)].join(' | ');
    const [twin] = await linesOf(
      [{ morgan: theirs, logline: mine }],
      [(url) => rawGet(url, '/', { 'User-Agent': 'a\x85"', 'X-Note': 'n\t\\', Referer: 'r\x9b' })],
    );
    assert.equal(sameOneLine(twin!), 'a\\u0085\\" | n\\t\\\\ | r\\u009b');
  });

  test('a compiled format called with a copy of the tokens escapes once, as morgan’s does', async (t) => {
    fixClock(t);
    const ours = logger.compile(':url :user-agent');
    const theirs = morgan.compile(':url :user-agent');
    const [twin] = await linesOf(
      [{ morgan: (tokens, req, res) => theirs({ ...tokens }, req, res), logline: (tokens, req, res) => ours({ ...tokens }, req, res) }],
      [(url) => rawGet(url, '/c"\\', { 'User-Agent': 'a\x85\tb' })],
    );
    assert.equal(sameOneLine(twin!), '/c\\"\\\\ a\\u0085\\tb');
  });

  test("an app's token returning a newline cannot split the line", async (t) => {
    fixClock(t);
    const note = (req: IncomingMessage): string => `${req.headers['x-note']}\nGET /forged 200`;
    logger.token('escaping-note', note);
    morgan.token('escaping-note', note);
    const [twin] = await linesOf([':method :url :escaping-note'], [(url) => rawGet(url, '/n', { 'X-Note': 'hi' })]);
    assert.equal(sameOneLine(twin!), 'GET /n hi\\nGET /forged 200');
  });

  test("the factory's token members escape as morgan's do", async () => {
    const seen: string[][] = [];
    const members = logger as unknown as logger.TokenIndexer;
    const theirs = morgan as unknown as morgan.TokenIndexer;
    const app = await serve([], (req, res) => {
      seen.push([members['user-agent']!(req, res), theirs['user-agent'](req, res)] as string[]);
      seen.push([members.url!(req, res), theirs.url(req, res)] as string[]);
      answer(req, res);
    });
    try {
      await rawGet(app.url, '/m"\\', { 'User-Agent': 'x\x85\ty' });
      await app.settled(1);
    } finally {
      await app.close();
    }
    assert.deepEqual(seen, [
      ['x\\u0085\\ty', 'x\\u0085\\ty'],
      ['/m\\"\\\\', '/m\\"\\\\'],
    ]);
  });
});

describe('where morgan writes raw, logline still writes one line (deliberate differences)', () => {
  test('a token returning an array (or any object) whose text holds a newline', async (t) => {
    fixClock(t);
    const list = (req: IncomingMessage): unknown => [`${req.headers['x-note']}\nforged`, 'b'];
    logger.token('escaping-list', list as logger.TokenCallback);
    morgan.token('escaping-list', list as morgan.TokenCallbackFn);
    const [twin] = await linesOf([':method :escaping-list'], [(url) => rawGet(url, '/', { 'X-Note': 'a' })]);
    assert.deepEqual(twin!.morgan.writes, ['GET a\nforged,b\n'], 'morgan writes two lines');
    assert.deepEqual(twin!.logline.writes, ['GET a\\nforged,b\n']);
  });

  test('a compiled format called with the app’s own tokens object', async (t) => {
    fixClock(t);
    const own = { 'user-agent': (req: IncomingMessage) => req.headers['user-agent'] };
    const loglineCompiled = logger.compile('[:user-agent]');
    const morganCompiled = morgan.compile('[:user-agent]');
    const [twin] = await linesOf(
      [
        {
          morgan: (tokens, req, res) => morganCompiled(own as unknown as morgan.TokenIndexer, req, res),
          logline: (tokens, req, res) => loglineCompiled(own as logger.TokenIndexer, req, res),
        },
      ],
      [(url) => rawGet(url, '/', { 'User-Agent': 'x\x85"' })],
    );
    assert.deepEqual(twin!.morgan.writes, ['[x\x85"]\n'], 'morgan writes the C1 byte and the quote raw');
    assert.deepEqual(twin!.logline.writes, ['[x\\u0085\\"]\n']);
  });
});

describe('json', () => {
  test('writes strings JSON-escaped: one line, and JSON.parse gives back what the client sent', async () => {
    const sink = new LineSink();
    const app = await serve([proxyAwareIp, logger('json', { stream: sink })], answer);
    try {
      assert.match(await rawGet(app.url, '/j"\\', {
        Authorization: basicAuth('u\n\u2028\x9b"'),
        'User-Agent': 'ua"\\\t\x85\x9b\xff',
        Referer: 'ref\x9b\t"',
      }), /^HTTP\/1\.1 200 /);
      await app.settled(1);
      const [line] = await sink.lines(1);
      assert.equal(sink.writes[0]!.split('\n').length, 2, 'one line');
      assert.doesNotMatch(line!, RAW_CONTROL);
      const entry = JSON.parse(line!) as Record<string, unknown>;
      assert.equal(entry.url, '/j"\\');
      assert.equal(entry['remote-user'], 'u\n\u2028\x9b"');
      assert.equal(entry['user-agent'], 'ua"\\\t\x85\x9b\xff');
      assert.equal(entry.referrer, 'ref\x9b\t"');
    } finally {
      await app.close();
    }
  });
});

// Bytes node's HTTP parser lets into a header value (tab, printable ASCII,
// 0x80-0xff); it refuses the other C0 controls and DEL. The request target
// takes printable ASCII only, `"` and `\` among it.
const headerChar = fc.oneof(
  fc.constantFrom('"', '\\', '\t', ' ', '\x85', '\x9b', '\xa0', '\xff', ','),
  fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
);
const headerValue = fc.array(headerChar, { maxLength: 24 }).map((chars) => chars.join(''));
const pathChar = fc.oneof(
  fc.constantFrom('"', '\\', '?', '%'),
  fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
);
// Basic credentials are base64, so any bytes, decoded as UTF-8: controls,
// C1, invalid sequences, and the line separators as UTF-8.
const credentialPart = fc.oneof(
  fc.constantFrom('\n', '\r', '\x00', '\x1b', '\x7f', '\x85', '\x9b', '\u2028', '\u2029', '"', '\\', ':', ' ').map((s) =>
    Buffer.from(s),
  ),
  fc.uint8Array({ minLength: 1, maxLength: 4 }).map((bytes) => Buffer.from(bytes)),
);
const credentials = fc.array(credentialPart, { maxLength: 10 }).map((parts) => Buffer.concat(parts).toString('base64'));

const hostileRequest = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE'),
  path: fc.array(pathChar, { maxLength: 24 }).map((chars) => '/' + chars.join('')),
  headers: fc.record(
    {
      'User-Agent': headerValue,
      Referer: headerValue,
      Referrer: headerValue,
      'X-Forwarded-For': headerValue,
      'X-Note': headerValue,
      'X-Echo': headerValue,
      Authorization: credentials.map((c) => `Basic ${c}`),
    },
    { requiredKeys: [] },
  ),
});

test('property: random bytes in every header and token a format reads give one line per request, morgan’s line', async (t) => {
  fixClock(t);
  const fnFormat: logger.FormatFn = (tokens, req, res) =>
    [tokens['remote-user']!(req, res), tokens.req!(req, res, 'x-note'), tokens.res!(req, res, 'x-echo'), tokens.url!(req, res)].join(' ');
  const formats: TwinFormat[] = [
    'combined', 'common', 'short', 'tiny', 'dev',
    ':remote-addr ":req[x-note]" ":res[x-echo]" :referrer :user-agent :remote-user',
    fnFormat,
  ];
  const json = new LineSink();
  const app = await serveTwins(formats, answer, [proxyAwareIp, logger('json', { stream: json }) as Middleware]);
  let sent = 0;
  try {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async ({ method, path, headers }) => {
        const head = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
        assert.match(await rawRequest(app.url, head.join('\r\n')), /^HTTP\/1\.1 200 /);
        sent++;
        await app.settled(sent);
        await json.waitForWrites(sent);
        for (const twin of app.twins) {
          await twin.morgan.waitForWrites(sent);
          const line = twin.logline.writes[sent - 1]!;
          assert.equal(withoutDurations(line), withoutDurations(twin.morgan.writes[sent - 1]!));
          assert.doesNotMatch(line.slice(0, -1).replace(DEV_COLOURS, ''), RAW_CONTROL);
        }
        const entry = JSON.parse(json.writes[sent - 1]!) as Record<string, unknown>;
        assert.equal(entry.url, path);
      }),
      { numRuns: 150 },
    );
    // Lines counted over all the output: as many as requests, in every sink.
    for (const sink of [json, ...app.twins.map((twin) => twin.logline)]) {
      assert.equal(sink.writes.length, sent);
      assert.equal(sink.writes.join('').split('\n').length - 1, sent);
    }
  } finally {
    await app.close();
  }
});
