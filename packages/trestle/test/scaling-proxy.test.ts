// Two trestle processes behind a real nginx (Debian's package, started and
// stopped here, on 127.0.0.1) that terminates TLS, configured as
// docs/scaling.md says (scaling/nginx.ts), with `trust proxy` set to its
// address: each
// process sees the client's address (req.ip, and the access log), the
// protocol the client used (req.protocol, req.secure), the Host it asked
// for; a secure session cookie is set only over HTTPS. A client that forges
// X-Forwarded-* is not believed, through the proxy or around it. Skipped,
// with the reason, where nginx is not installed.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as https from 'node:https';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Nginx, nginxMissing } from './scaling/nginx';
import { type Child, startChild } from './soak/child';

interface Listening {
  type: 'listening';
  port: number;
  pid: number;
}

interface Answer {
  status: number;
  setCookie: string[] | undefined;
  json: { pid: number; ip?: string; ips?: string[]; protocol?: string; secure?: boolean; hostname?: string };
}

/** The client's own address: another loopback address than the proxy's 127.0.0.1. */
const CLIENT = '127.0.0.2';
/** The proxy reaches the backends from 127.0.0.1, and only that address is trusted. */
const TRUST_PROXY = '127.0.0.1';

/** One request from CLIENT on a fresh connection, over HTTP or HTTPS. */
function call(scheme: 'http' | 'https', port: number, method: string, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<Answer> {
  const options = { host: '127.0.0.1', port, method, path, headers, localAddress: CLIENT, agent: false as const, rejectUnauthorized: false };
  return new Promise((resolve, reject) => {
    const req = (scheme === 'https' ? https : http).request(options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'], json: JSON.parse(body) as Answer['json'] }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const children: Child[] = [];
const backends: Listening[] = [];
let proxy: Nginx | undefined;

describe('behind nginx', { skip: nginxMissing() }, () => {
  before(async () => {
    for (let i = 0; i < 2; i++) children.push(startChild(join(__dirname, 'scaling', 'proxied-server.ts'), [TRUST_PROXY]));
    for (const child of children) backends.push(await child.message<Listening>('listening', 60_000));
    proxy = await Nginx.start(backends.map((b) => b.port), { tls: true });
  });

  after(async () => {
    await proxy?.stop();
    for (const child of children) if (child.process.connected) child.send({ type: 'close' });
    try {
      assert.deepEqual(await Promise.all(children.map((child) => child.exited(10_000))), [0, 0]);
    } finally {
      for (const child of children) child.kill();
    }
  });

  test('through the proxy over HTTP: both processes see the client, not the proxy, and log its address', async () => {
    const pids = new Set<number>();
    for (let i = 0; i < 4; i++) {
      const { status, json } = await call('http', proxy!.port, 'GET', '/whoami', { Host: 'shop.example' });
      assert.equal(status, 200);
      pids.add(json.pid);
      assert.deepEqual({ ...json, pid: 0 }, { pid: 0, ip: CLIENT, ips: [CLIENT], protocol: 'http', secure: false, hostname: 'shop.example' });
    }
    assert.deepEqual([...pids].sort(), backends.map((b) => b.pid).sort(), 'the proxy dealt requests to both processes');
    // Two requests each (the proxy takes turns), each logged with the client's address.
    for (const child of children) {
      for (let i = 0; i < 2; i++) {
        const { line } = await child.message<{ type: 'log'; line: string }>('log');
        assert.equal(line, `${CLIENT} GET /whoami 200\n`);
      }
    }
  });

  test('through the proxy over HTTPS: protocol https, req.secure, and the secure session cookie is set', async () => {
    const { status, json } = await call('https', proxy!.httpsPort!, 'GET', '/whoami', { Host: 'shop.example' });
    assert.equal(status, 200);
    assert.deepEqual([json.ip, json.protocol, json.secure, json.hostname], [CLIENT, 'https', true, 'shop.example']);
    for (let i = 0; i < 2; i++) {
      const login = await call('https', proxy!.httpsPort!, 'POST', '/login');
      assert.equal(login.json.secure, true);
      assert.equal(login.setCookie?.length, 1);
      assert.match(login.setCookie[0]!, /^sid=s%3A[^;]+; Path=\/; HttpOnly; Secure$/);
    }
  });

  test('over plain HTTP the secure cookie is not set, whichever process answers', async () => {
    for (let i = 0; i < 2; i++) {
      const login = await call('http', proxy!.port, 'POST', '/login');
      assert.deepEqual([login.status, login.json.secure, login.setCookie], [200, false, undefined]);
    }
  });

  test('forged X-Forwarded-* are not believed: the proxy appends the real address, and around the proxy nothing is trusted', async () => {
    const forged = { 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' };
    // Through the proxy: it overwrites Proto and Host and appends the client's address; only that one is believed.
    const proxied = await call('http', proxy!.port, 'GET', '/whoami', { ...forged, Host: 'shop.example' });
    assert.deepEqual([proxied.json.ip, proxied.json.ips, proxied.json.protocol, proxied.json.hostname], [CLIENT, [CLIENT], 'http', 'shop.example']);
    // Straight to a backend: the client is not the proxy, so none of it counts, and no secure cookie is set.
    for (const { port } of backends) {
      const direct = await call('http', port, 'GET', '/whoami', { ...forged, Host: 'backend.internal' });
      assert.deepEqual([direct.json.ip, direct.json.ips, direct.json.protocol, direct.json.secure, direct.json.hostname], [CLIENT, [], 'http', false, 'backend.internal']);
      const login = await call('http', port, 'POST', '/login', forged);
      assert.deepEqual([login.json.secure, login.setCookie], [false, undefined]);
    }
  });
});
