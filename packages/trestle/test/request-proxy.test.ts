// req.ip, req.ips, req.protocol, req.secure, req.host, req.hostname and
// req.subdomains under every form of the `trust proxy` setting, over real
// sockets from chosen client addresses (IPv4, IPv6, IPv4-mapped) and TLS.
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import trestle from 'trestle';

type Req = trestle.Request;

/** What each test reads back: the proxy-aware properties of the request. */
function view(req: Req) {
  return {
    ip: req.ip ?? null,
    ips: req.ips,
    protocol: req.protocol,
    secure: req.secure,
    host: req.host ?? null,
    hostname: req.hostname ?? null,
    subdomains: req.subdomains,
  };
}

type View = ReturnType<typeof view>;

function appWith(settings: Record<string, unknown>) {
  const app = trestle();
  for (const [name, value] of Object.entries(settings)) app.set(name, value);
  app.get('/', (req, res) => res.json(view(req)));
  return app;
}

async function listen(t: TestContext, server: http.Server | https.Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  t.after(() => server.close());
  return (server.address() as net.AddressInfo).port;
}

/** Serves `app` on 127.0.0.1 and asks from `from` (any 127.x address) with `headers`. */
async function ask(t: TestContext, settings: Record<string, unknown>, headers: Record<string, string>, from = '127.0.0.1'): Promise<View> {
  const server = http.createServer(appWith(settings));
  await listen(t, server, '127.0.0.1');
  const res = await request(server).get('/').agent(new http.Agent({ localAddress: from })).set(headers).expect(200);
  return res.body as View;
}

const chain = {
  Host: 'local.test:3000',
  'X-Forwarded-For': '203.0.113.1, 10.0.0.2, 192.168.1.3',
  'X-Forwarded-Proto': 'https, http',
  'X-Forwarded-Host': 'a.b.example.com:8080, proxy.internal',
};

const direct: View = { ip: '127.0.0.1', ips: [], protocol: 'http', secure: false, host: 'local.test:3000', hostname: 'local.test', subdomains: [] };
const forwarded = { protocol: 'https', secure: true, host: 'a.b.example.com:8080', hostname: 'a.b.example.com', subdomains: ['b', 'a'] };
const viaAll: View = { ip: '203.0.113.1', ips: ['203.0.113.1', '10.0.0.2', '192.168.1.3'], ...forwarded };
const viaOne: View = { ip: '192.168.1.3', ips: ['192.168.1.3'], ...forwarded };
const viaTwo: View = { ip: '10.0.0.2', ips: ['10.0.0.2', '192.168.1.3'], ...forwarded };

test('trust proxy off (the default) ignores every X-Forwarded header', async (t) => {
  assert.deepEqual(await ask(t, {}, chain), direct);
  assert.deepEqual(await ask(t, { 'trust proxy': false }, chain), direct);
});

test('trust proxy true trusts the whole chain: ip is the leftmost address', async (t) => {
  assert.deepEqual(await ask(t, { 'trust proxy': true }, chain), viaAll);
});

test('trust proxy as a number of hops trusts that many proxies from the socket', async (t) => {
  assert.deepEqual(await ask(t, { 'trust proxy': 0 }, chain), direct);
  assert.deepEqual(await ask(t, { 'trust proxy': 1 }, chain), viaOne);
  assert.deepEqual(await ask(t, { 'trust proxy': 2 }, chain), viaTwo);
  assert.deepEqual(await ask(t, { 'trust proxy': 3 }, chain), viaAll);
  assert.deepEqual(await ask(t, { 'trust proxy': 10 }, chain), viaAll);
});

test('trust proxy as an address, a subnet, a list string or an array', async (t) => {
  assert.deepEqual(await ask(t, { 'trust proxy': '127.0.0.1' }, chain), viaOne);
  assert.deepEqual(await ask(t, { 'trust proxy': '127.0.0.0/8, 192.168.0.0/16' }, chain), viaTwo);
  assert.deepEqual(await ask(t, { 'trust proxy': '127.0.0.1,192.168.1.3,10.0.0.2' }, chain), viaAll);
  assert.deepEqual(await ask(t, { 'trust proxy': ['127.0.0.1', '192.168.0.0/16'] }, chain), viaTwo);
  assert.deepEqual(await ask(t, { 'trust proxy': ['127.0.0.1/32', '192.168.1.3', '10.0.0.0/255.0.0.0'] }, chain), viaAll);
  // Not the peer: nothing forwarded is believed.
  assert.deepEqual(await ask(t, { 'trust proxy': '10.0.0.2' }, chain), direct);
});

test('trust proxy by the names loopback, linklocal and uniquelocal', async (t) => {
  assert.deepEqual(await ask(t, { 'trust proxy': 'loopback' }, chain), viaOne);
  assert.deepEqual(await ask(t, { 'trust proxy': 'linklocal' }, chain), direct);
  assert.deepEqual(await ask(t, { 'trust proxy': 'loopback, uniquelocal' }, chain), viaAll);
  assert.deepEqual(await ask(t, { 'trust proxy': ['loopback', 'linklocal'] }, chain), viaOne);
});

test('trust proxy as a function (addr, i) => boolean', async (t) => {
  const seen: Array<[string, number]> = [];
  const trust = (addr: string, i: number) => {
    seen.push([addr, i]);
    return addr === '127.0.0.1' || addr === '192.168.1.3';
  };
  const got = await ask(t, { 'trust proxy': trust }, { ...chain, 'X-Forwarded-Host': 'fn.example.com' });
  assert.deepEqual(got, { ...viaTwo, host: 'fn.example.com', hostname: 'fn.example.com', subdomains: ['fn'] });
  // Asked about the socket address first (i = 0), then outward.
  assert.deepEqual(seen.slice(0, 3), [['127.0.0.1', 0], ['192.168.1.3', 1], ['10.0.0.2', 2]]);
  assert.deepEqual(await ask(t, { 'trust proxy': (_addr: string, i: number) => i < 2 }, chain), viaTwo);
});

test('the socket address decides: a trusted subnet admits another loopback client, a single address does not', async (t) => {
  const headers = { Host: 'h.test', 'X-Forwarded-For': '198.51.100.9', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'fwd.test' };
  assert.deepEqual(await ask(t, { 'trust proxy': '127.0.0.1' }, headers, '127.0.0.5'), {
    ip: '127.0.0.5', ips: [], protocol: 'http', secure: false, host: 'h.test', hostname: 'h.test', subdomains: [],
  });
  assert.deepEqual(await ask(t, { 'trust proxy': '127.0.0.0/8' }, headers, '127.0.0.5'), {
    ip: '198.51.100.9', ips: ['198.51.100.9'], protocol: 'https', secure: true, host: 'fwd.test', hostname: 'fwd.test', subdomains: [],
  });
});

test('trust proxy is inherited by a mounted sub-app unless it sets its own', async (t) => {
  const parent = trestle();
  parent.set('trust proxy', true);
  const inherits = trestle();
  inherits.get('/', (req, res) => res.json(view(req)));
  const own = trestle();
  own.set('trust proxy', false);
  own.get('/', (req, res) => res.json(view(req)));
  parent.use('/inherits', inherits);
  parent.use('/own', own);
  const server = http.createServer(parent);
  await listen(t, server, '127.0.0.1');
  assert.deepEqual((await request(server).get('/inherits').set(chain).expect(200)).body, viaAll);
  assert.deepEqual((await request(server).get('/own').set(chain).expect(200)).body, direct);
});

test('repeated X-Forwarded-* headers: the first host and protocol, every address', async (t) => {
  const server = http.createServer(appWith({ 'trust proxy': true }));
  const port = await listen(t, server, '127.0.0.1');
  const raw = [
    'GET / HTTP/1.1',
    'Host: a.example.com',
    'X-Forwarded-Host: first.example.com',
    'X-Forwarded-Host: second.example.com',
    'X-Forwarded-For: 198.51.100.1',
    'X-Forwarded-For: 198.51.100.2',
    'X-Forwarded-Proto: https',
    'X-Forwarded-Proto: http',
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  const body = await rawRequest(port, raw);
  assert.deepEqual(JSON.parse(body), {
    ip: '198.51.100.1', ips: ['198.51.100.1', '198.51.100.2'], protocol: 'https', secure: true,
    host: 'first.example.com', hostname: 'first.example.com', subdomains: ['first'],
  });
});

test('forwarded values are trimmed and kept as sent', async (t) => {
  const trusted = { 'trust proxy': true };
  const proto = await ask(t, trusted, { Host: 'h.test', 'X-Forwarded-Proto': ' HTTPS , http' });
  assert.equal(proto.protocol, 'HTTPS');
  assert.equal(proto.secure, false);
  const host = await ask(t, trusted, { Host: 'h.test', 'X-Forwarded-Host': '  spaced.example.com  ,x' });
  assert.equal(host.host, 'spaced.example.com');
  // An empty X-Forwarded-Host is no value: Host is used.
  assert.equal((await ask(t, trusted, { Host: 'h.test', 'X-Forwarded-Host': '' })).host, 'h.test');
  // Without X-Forwarded-Proto the connection decides.
  assert.equal((await ask(t, trusted, { Host: 'h.test' })).protocol, 'http');
});

test('X-Forwarded-For entries that are not addresses are reported, never thrown on', async (t) => {
  const got = await ask(t, { 'trust proxy': true }, { Host: 'h.test', 'X-Forwarded-For': 'not-an-ip, 198.51.100.4' });
  assert.equal(got.ip, 'not-an-ip');
  assert.deepEqual(got.ips, ['not-an-ip', '198.51.100.4']);
  // A subnet rule cannot trust a malformed entry, so the walk stops there.
  const stops = await ask(t, { 'trust proxy': 'loopback' }, { Host: 'h.test', 'X-Forwarded-For': '198.51.100.4, garbage' });
  assert.equal(stops.ip, 'garbage');
  assert.deepEqual(stops.ips, ['garbage']);
});

test('req.host keeps the port, req.hostname drops it, IPv6 literals keep their brackets', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['example.com', 'example.com', 'example.com'],
    ['example.com:8080', 'example.com:8080', 'example.com'],
    ['[::1]:3000', '[::1]:3000', '[::1]'],
    ['[2001:db8::1]', '[2001:db8::1]', '[2001:db8::1]'],
    ['192.168.0.1:80', '192.168.0.1:80', '192.168.0.1'],
    ['A.Example.COM:80', 'A.Example.COM:80', 'A.Example.COM'],
  ];
  for (const [header, host, hostname] of cases) {
    const got = await ask(t, {}, { Host: header });
    assert.equal(got.host, host, header);
    assert.equal(got.hostname, hostname, header);
  }
  const v6 = await ask(t, { 'trust proxy': true }, { Host: 'h.test', 'X-Forwarded-Host': '[fe80::1]:8443, other' });
  assert.equal(v6.host, '[fe80::1]:8443');
  assert.equal(v6.hostname, '[fe80::1]');
});

test('without a Host header host and hostname are undefined and there are no subdomains', async (t) => {
  const server = http.createServer(appWith({ 'trust proxy': false }));
  const port = await listen(t, server, '127.0.0.1');
  const none = JSON.parse(await rawRequest(port, 'GET / HTTP/1.0\r\nX-Forwarded-Host: fwd.example.com\r\n\r\n')) as View;
  assert.equal(none.host, null);
  assert.equal(none.hostname, null);
  assert.deepEqual(none.subdomains, []);
  const empty = JSON.parse(await rawRequest(port, 'GET / HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n')) as View;
  assert.equal(empty.host, null);
  // HTTP/1.0 with no Host: a trusted proxy's X-Forwarded-Host still names the host.
  const trustingServer = http.createServer(appWith({ 'trust proxy': true }));
  const trustingPort = await listen(t, trustingServer, '127.0.0.1');
  const viaProxy = JSON.parse(await rawRequest(trustingPort, 'GET / HTTP/1.0\r\nX-Forwarded-Host: fwd.example.com\r\n\r\n')) as View;
  assert.equal(viaProxy.host, 'fwd.example.com');
});

test('req.subdomains follows the subdomain offset setting', async (t) => {
  const host = { Host: 'a.b.c.example.com' };
  assert.deepEqual((await ask(t, {}, host)).subdomains, ['c', 'b', 'a']);
  assert.deepEqual((await ask(t, { 'subdomain offset': 1 }, host)).subdomains, ['example', 'c', 'b', 'a']);
  assert.deepEqual((await ask(t, { 'subdomain offset': 3 }, host)).subdomains, ['b', 'a']);
  assert.deepEqual((await ask(t, { 'subdomain offset': 5 }, host)).subdomains, []);
  assert.deepEqual((await ask(t, {}, { Host: 'localhost:3000' })).subdomains, []);
  assert.deepEqual((await ask(t, {}, { Host: 'tobi.ferrets.example.com:8080' })).subdomains, ['ferrets', 'tobi']);
});

test('an IP address host has no subdomains; it counts as one label', async (t) => {
  assert.deepEqual((await ask(t, {}, { Host: '192.168.0.1:80' })).subdomains, []);
  assert.deepEqual((await ask(t, {}, { Host: '[2001:db8::1]:80' })).subdomains, []);
  assert.deepEqual((await ask(t, { 'subdomain offset': 1 }, { Host: '10.20.30.40' })).subdomains, []);
  // With an offset of 0 nothing is excluded, as in Express: the address itself.
  assert.deepEqual((await ask(t, { 'subdomain offset': 0 }, { Host: '192.168.0.1' })).subdomains, ['192.168.0.1']);
  assert.deepEqual((await ask(t, { 'subdomain offset': 0 }, { Host: '[::1]:80' })).subdomains, ['[::1]']);
});

test('HTTPS: protocol https and secure true; a trusted proxy may say http', async (t) => {
  const server = https.createServer({ key: TLS_KEY, cert: TLS_CERT }, appWith({ 'trust proxy': 'loopback' }));
  await listen(t, server, '127.0.0.1');
  const own = await request(server).get('/').disableTLSCerts().set('Host', 'secure.test').expect(200);
  assert.equal(own.body.protocol, 'https');
  assert.equal(own.body.secure, true);
  const proxied = await request(server).get('/').disableTLSCerts().set('X-Forwarded-Proto', 'http').expect(200);
  assert.equal(proxied.body.protocol, 'http');
  assert.equal(proxied.body.secure, false);
});

test('IPv6 clients: ip, ips and trust by IPv6 address or name', async (t) => {
  if (!(await ipv6Available())) {
    t.skip('this machine cannot listen on ::1 (no IPv6 loopback)');
    return;
  }
  const askV6 = async (settings: Record<string, unknown>, headers: Record<string, string>) => {
    const server = http.createServer(appWith(settings));
    const port = await listen(t, server, '::1');
    return (await request(`http://[::1]:${port}`).get('/').set(headers).expect(200)).body as View;
  };
  const plain = await askV6({}, { 'X-Forwarded-For': '2001:db8::5' });
  assert.equal(plain.ip, '::1');
  assert.deepEqual(plain.ips, []);
  assert.match(plain.host ?? '', /^\[::1\]:\d+$/);
  assert.equal(plain.hostname, '[::1]');
  assert.deepEqual(plain.subdomains, []);

  const headers = { Host: 'h.test', 'X-Forwarded-For': '2001:db8::5, fe80::2' };
  assert.deepEqual((await askV6({ 'trust proxy': 'loopback' }, headers)).ips, ['fe80::2']);
  const byAddress = await askV6({ 'trust proxy': '::1' }, headers);
  assert.equal(byAddress.ip, 'fe80::2');
  const withLinkLocal = await askV6({ 'trust proxy': '::1, linklocal' }, headers);
  assert.equal(withLinkLocal.ip, '2001:db8::5');
  assert.deepEqual(withLinkLocal.ips, ['2001:db8::5', 'fe80::2']);
  const bySubnet = await askV6({ 'trust proxy': ['::1/128', 'fe80::/10'] }, headers);
  assert.equal(bySubnet.ip, '2001:db8::5');
  const hops = await askV6({ 'trust proxy': 1 }, { Host: 'h.test', 'X-Forwarded-For': '2001:db8::5, 2001:db8::6' });
  assert.equal(hops.ip, '2001:db8::6');
});

test('IPv4-mapped IPv6 sockets: 127.0.0.1 rules still apply', async (t) => {
  if (!(await ipv6Available())) {
    t.skip('this machine cannot listen on :: (no IPv6)');
    return;
  }
  for (const [trust, ip] of [[false, '::ffff:127.0.0.1'], ['127.0.0.1', '198.51.100.7'], ['loopback', '198.51.100.7']] as const) {
    const server = http.createServer(appWith({ 'trust proxy': trust }));
    const port = await listen(t, server, '::');
    const res = await request(`http://127.0.0.1:${port}`).get('/').set('X-Forwarded-For', '198.51.100.7').expect(200);
    assert.equal(res.body.ip, ip, String(trust));
  }
});

test('lazy: a request that reads none of these never consults trust proxy', async (t) => {
  let calls = 0;
  const app = trestle();
  app.set('trust proxy', () => {
    calls++;
    return true;
  });
  app.get('/quiet', (_req, res) => res.send('ok'));
  app.get('/ip', (req, res) => res.send(req.ip));
  const server = http.createServer(app);
  await listen(t, server, '127.0.0.1');
  await request(server).get('/quiet').set(chain).expect(200, 'ok');
  assert.equal(calls, 0);
  await request(server).get('/ip').set(chain).expect(200, '203.0.113.1');
  assert.ok(calls > 0);
});

function rawRequest(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new net.Socket();
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(data.slice(data.indexOf('\r\n\r\n') + 4)));
    socket.connect(port, '127.0.0.1', () => socket.end(raw));
  });
}

let ipv6: Promise<boolean> | undefined;
function ipv6Available(): Promise<boolean> {
  ipv6 ??= new Promise((resolve) => {
    const probe = http.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(0, '::1', () => probe.close(() => resolve(true)));
  });
  return ipv6;
}

// A self-signed certificate for 127.0.0.1/localhost (P-256, valid until 2126), for tests only.
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg51qlQbz2wp7hhW0T
TeKeyktaBOHeC7RoYgo2qUwPO+qhRANCAATq5HYIg02HOZxQFEklebk+126KxYIx
Payqs0+oCAKXQz5djKK9deQxU9L8Lca+2JvFZZHZ95TUsk/zFGUvB2ue
-----END PRIVATE KEY-----
`;
const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUKpEc6lUzGA6qPT9SSw585ZFnbLcwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMjAxNTAxNloYDzIxMjYxMDI5
MDE1MDE2WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATq5HYIg02HOZxQFEklebk+126KxYIxPayqs0+oCAKXQz5djKK9deQx
U9L8Lca+2JvFZZHZ95TUsk/zFGUvB2ueo28wbTAdBgNVHQ4EFgQUp6ZmvyOFDwkv
EQbZvNddC0tGHKwwHwYDVR0jBBgwFoAUp6ZmvyOFDwkvEQbZvNddC0tGHKwwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
zj0EAwIDSAAwRQIgeNk32f+UbWhvvqnVibSVRswLqwMWxdFKICDY0RdTwNYCIQC7
9WwmrSfjoph/yFt2tp2C6G63oJavuzTMll5OvInicg==
-----END CERTIFICATE-----
`;
