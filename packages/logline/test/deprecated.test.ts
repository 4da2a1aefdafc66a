// The morgan call forms that still work, each with a deprecation warning:
// logger(), the "default" format, logger(options) and the buffer option.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import request from 'supertest';
import logger from 'logline-http';
import { LineSink, lineFor, linePattern, oneRequestScript, runNode, send, serve } from './helpers.js';

const DEFAULT_LINE = '127.0.0.1 - - [{web}] "GET /d HTTP/1.1" 200 2 "-" "-"';
const ok = (req: unknown, res: Parameters<typeof send>[0]): void => send(res, 200, 'ok');

/** The warning lines node prints on stderr, without the "(node:PID) " prefix. */
function warnings(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => /^\(node:\d+\) /.test(line))
    .map((line) => line.replace(/^\(node:\d+\) /, ''));
}

const MESSAGES = {
  noFormat: '[LOGLINE_DEP_NO_FORMAT] DeprecationWarning: logline: logger() without a format is deprecated: specify a format',
  defaultFormat:
    '[LOGLINE_DEP_DEFAULT_FORMAT] DeprecationWarning: logline: the "default" format is deprecated: use the "combined" format',
  options: '[LOGLINE_DEP_OPTIONS_OBJECT] DeprecationWarning: logline: logger(options) is deprecated: use logger(format, options)',
  buffer: '[LOGLINE_DEP_BUFFER] DeprecationWarning: logline: the buffer option is deprecated: lines are written as they come',
};

describe('warnings on stderr', () => {
  test('each deprecated form warns once per kind, and never throws', () => {
    const run = runNode(`
      const logger = require('logline-http');
      for (let i = 0; i < 3; i++) {
        logger();
        logger('default');
        logger({ format: 'tiny' });
        logger('tiny', { buffer: true });
        logger('tiny', { buffer: 50 });
      }
      logger('combined');
    `);
    assert.equal(run.status, 0);
    assert.equal(run.stdout, '');
    assert.deepEqual(warnings(run.stderr), [MESSAGES.noFormat, MESSAGES.defaultFormat, MESSAGES.options, MESSAGES.buffer]);
  });

  test('the current forms do not warn', () => {
    const run = runNode(`
      const logger = require('logline-http');
      for (const name of ['combined', 'common', 'dev', 'short', 'tiny', 'json', ':method']) logger(name, {});
      logger(() => null, { immediate: true, skip: () => false, stream: process.stdout });
    `);
    assert.equal(run.status, 0);
    assert.equal(run.stderr, '');
  });

  test('--no-deprecation silences them', () => {
    const run = runNode(`const logger = require('logline-http'); logger(); logger({}); logger('tiny', { buffer: true });`, [
      '--no-deprecation',
    ]);
    assert.equal(run.status, 0);
    assert.equal(run.stderr, '');
  });

  test('logger() logs the default format to standard output', () => {
    const run = runNode(oneRequestScript('logger()', '/d'));
    assert.equal(run.status, 0);
    assert.match(run.stdout, linePattern(DEFAULT_LINE.replace(' 2 ', ' - ') + '\n'));
    assert.deepEqual(warnings(run.stderr), [MESSAGES.noFormat, MESSAGES.defaultFormat]);
  });
});

describe('the deprecated forms still log', () => {
  test('the "default" format: combined with a web date', async () => {
    const line = await lineFor('default', ok, (url) => request(url).get('/d'));
    assert.match(line, linePattern(DEFAULT_LINE));
  });

  test('logger(options) takes its format from options.format', async () => {
    const sink = new LineSink();
    const app = await serve([logger({ format: ':method :url :status', stream: sink })], ok);
    try {
      await request(app.url).get('/opts');
      assert.equal(await sink.firstLine(), 'GET /opts 200');
    } finally {
      await app.close();
    }
  });

  test('logger(options) without options.format uses the default format', async () => {
    const sink = new LineSink();
    const app = await serve([logger({ stream: sink })], ok);
    try {
      await request(app.url).get('/d');
      assert.match(await sink.firstLine(), linePattern(DEFAULT_LINE));
    } finally {
      await app.close();
    }
  });
});

describe('buffer', () => {
  // The clock is node:test's mock, so the interval passes when the test says
  // so: nothing here waits on real time.
  const bufferedRun = async (
    t: TestContext,
    buffer: true | number,
    check: (sink: LineSink, tick: (ms: number) => void) => void,
  ): Promise<void> => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const sink = new LineSink();
    const app = await serve([logger(':method :url', { stream: sink, buffer })], ok);
    try {
      await request(app.url).get('/a');
      await request(app.url).get('/b');
      await app.settled(2);
      check(sink, (ms) => t.mock.timers.tick(ms));
    } finally {
      await app.close();
    }
  };

  test('buffer: N writes the lines together, as one write, after N ms', async (t) => {
    await bufferedRun(t, 250, (sink, tick) => {
      assert.deepEqual(sink.writes, []);
      tick(249);
      assert.deepEqual(sink.writes, []);
      tick(1);
      assert.deepEqual(sink.writes, ['GET /a\nGET /b\n']);
    });
  });

  test('buffer: true waits 1000 ms', async (t) => {
    await bufferedRun(t, true, (sink, tick) => {
      tick(999);
      assert.deepEqual(sink.writes, []);
      tick(1);
      assert.deepEqual(sink.writes, ['GET /a\nGET /b\n']);
    });
  });
});
