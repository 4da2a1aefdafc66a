// Two trestle processes sharing one Redis (a real redis-server started here):
// a session made through one is recognised by the other (express-session +
// connect-redis), a rate limit counts across both (express-rate-limit +
// rate-limit-redis), and a Redis crash gives a clear 503 with Retry-After
// while it lasts, then service resumes with no process lost. Skipped, with
// the reason, where redis-server is not installed.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { rawRequest, type RawResponse } from './helpers';
import { RedisServer, redisMissing } from './scaling/redis';
import { type Child, startChild } from './soak/child';

interface Listening {
  type: 'listening';
  port: number;
  pid: number;
}

interface Answer extends RawResponse {
  json: { user?: string; pid?: number; error?: string; redis?: boolean };
}

/** One request on a fresh connection; the body parsed as JSON when it is JSON. */
async function call(port: number, method: string, path: string, cookie?: string, body?: object): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (cookie !== undefined) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await rawRequest(port, method, path, headers, body === undefined ? undefined : JSON.stringify(body));
  const json = /json/.test(String(res.headers['content-type'])) ? (JSON.parse(res.body) as Answer['json']) : {};
  return { ...res, json };
}

/** The session cookie (name=value) an answer sets. */
function sessionCookie(res: RawResponse): string {
  const set = res.headers['set-cookie']?.[0];
  assert.ok(set !== undefined, 'the answer sets the session cookie');
  return set.split(';')[0]!;
}

// Skipped on a machine without redis-server, but never in CI (see commandMissing).
const missing = redisMissing();

describe('two trestle processes, state in Redis', { skip: missing }, () => {
  let redis: RedisServer | undefined;
  const children: Child[] = [];
  const servers: Listening[] = [];

  before(async () => {
    redis = await RedisServer.start();
    for (let i = 0; i < 2; i++) children.push(startChild(join(__dirname, 'scaling', 'session-server.ts'), [String(redis.port)]));
    for (const child of children) servers.push(await child.message<Listening>('listening', 60_000));
  });

  after(async () => {
    // Every process closes gracefully and exits 0: none crashed on the way.
    const codes: Array<number | string> = [];
    for (const child of children) if (child.process.connected) child.send({ type: 'close' });
    try {
      for (const child of children) codes.push(await child.exited(10_000));
    } finally {
      for (const child of children) child.kill();
      await redis?.stop();
    }
    assert.deepEqual(codes, [0, 0]);
  });

  test('a login through one process is recognised by the other, and a logout through that one ends it for both', async () => {
    const [a, b] = servers as [Listening, Listening];
    assert.notEqual(a.pid, b.pid);
    assert.equal((await call(a.port, 'GET', '/me')).status, 401);

    const login = await call(a.port, 'POST', '/login', undefined, { user: 'ada' });
    assert.deepEqual([login.status, login.json], [200, { user: 'ada', pid: a.pid }]);
    const cookie = sessionCookie(login);
    assert.match(cookie, /^sid=s%3A/);

    const onB = await call(b.port, 'GET', '/me', cookie);
    assert.deepEqual([onB.status, onB.json], [200, { user: 'ada', pid: b.pid }]);

    assert.equal((await call(b.port, 'POST', '/logout', cookie)).status, 200);
    const afterLogout = await call(a.port, 'GET', '/me', cookie);
    assert.deepEqual([afterLogout.status, afterLogout.json], [401, { pid: a.pid }]);
  });

  test('the rate limit counts the requests made to both processes: the fifth is refused 429 by either', async () => {
    const [a, b] = servers as [Listening, Listening];
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(i % 2 === 0 ? a.port : b.port, 'GET', '/api/ping');
      assert.equal(res.status, 200);
      seen.push(String(res.headers.ratelimit));
    }
    // One counter: remaining falls 3, 2, 1, 0 whichever process answered.
    assert.deepEqual(seen.map((h) => /r=(\d+)/.exec(h)?.[1]), ['3', '2', '1', '0']);
    for (const port of [a.port, b.port]) {
      const refused = await call(port, 'GET', '/api/ping');
      assert.equal(refused.status, 429);
      assert.equal(refused.headers['retry-after'], '60');
    }
  });

  test('a Redis crash: 503 with Retry-After from both while it is down, both still up; after a restart they serve again', async (t) => {
    const [a, b] = servers as [Listening, Listening];
    const login = await call(a.port, 'POST', '/login', undefined, { user: 'bo' });
    const cookie = sessionCookie(login);

    await redis!.crash();
    for (const { port, pid } of [a, b]) {
      for (const [method, path] of [['GET', '/me'], ['GET', '/api/ping'], ['POST', '/logout']] as const) {
        const res = await call(port, method, path, cookie);
        assert.deepEqual([res.status, res.headers['retry-after'], res.json], [503, '1', { error: 'session and rate-limit store unavailable', pid }], `${method} ${path}`);
      }
      const login = await call(port, 'POST', '/login', undefined, { user: 'cy' });
      assert.equal(login.status, 503);
      // The process itself is alive and says what it misses.
      const health = await call(port, 'GET', '/health');
      assert.deepEqual([health.status, health.json], [200, { pid, redis: false }]);
    }

    await redis!.run();
    const restarted = performance.now();
    // Each client reconnects on its own (retrying at most every second): poll, bounded.
    for (const { port } of [a, b]) {
      let ready = false;
      for (let i = 0; i < 50 && !ready; i++) {
        ready = (await call(port, 'GET', '/health')).json.redis === true;
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(ready, 'the Redis client reconnected within 5 s');
    }
    t.diagnostic(`both processes reconnected ${Math.round(performance.now() - restarted)} ms after Redis answered PING again`);
    // This Redis keeps nothing on disk: the old session is gone, a new login works across both.
    assert.equal((await call(b.port, 'GET', '/me', cookie)).status, 401);
    const again = await call(b.port, 'POST', '/login', undefined, { user: 'bo' });
    assert.equal(again.status, 200);
    const onA = await call(a.port, 'GET', '/me', sessionCookie(again));
    assert.deepEqual([onA.status, onA.json], [200, { user: 'bo', pid: a.pid }]);
    // The rate limiter reloads its scripts into the new Redis by itself; the count starts again.
    const ping = await call(a.port, 'GET', '/api/ping');
    assert.equal(ping.status, 200);
    assert.match(String(ping.headers.ratelimit), /r=3/);
  });
});
