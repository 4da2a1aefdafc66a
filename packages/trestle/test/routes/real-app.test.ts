// trestle.routes on routers that Express's own packages made: a real app's
// (json-server 0.17, whose REST router is built with its own Express 4,
// installed from the registry into a temporary folder), mounted in a trestle
// app of each entry, listed and served over HTTP; and Express 4's and 5's
// routers mounted with paths trestle did not note (read back from the
// layers: Express 4's regexp, Express 5's rawPath).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

interface RouteLike { methods: string[]; path: string; params: Array<string | number>; handlers: string[]; openapi: boolean; syntax: string }
type App = ((req: unknown, res: unknown) => void) & { use(...args: unknown[]): unknown; listen(port: number, host: string, cb: () => void): import('node:http').Server };
interface Entry { (): App; routes(app: unknown): RouteLike[]; openapi(app: unknown, options: { info: { title: string; version: string } }): { paths: Record<string, Record<string, unknown>> } }
type RouterFactory = () => { use(...args: unknown[]): unknown; get(path: string, ...handlers: Array<(...args: unknown[]) => void>): unknown };

const JSON_SERVER = 'json-server@0.17.4';
let folder = '';
let jsonServer: { router(db: object): unknown };

function install(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFile(npm, ['install', JSON_SERVER, '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts', '--loglevel=error'], { cwd: dir, timeout: 150_000 }, (err, _out, stderr) => {
      if (err) reject(new Error(`npm install ${JSON_SERVER} did not finish within 150 s or failed: ${err.message}\n${stderr}`));
      else resolve();
    });
  });
}

async function get(server: import('node:http').Server, path: string): Promise<{ status: number; body: unknown }> {
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(3000) });
  return { status: res.status, body: await res.json() };
}

function listen(app: App): Promise<import('node:http').Server> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const line = (r: RouteLike) => `${r.methods.join(',')} ${r.path}`;

describe('routes: a real app\'s router (json-server 0.17 on its own Express 4)', { timeout: 200_000 }, () => {
  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'trestle-json-server-'));
    await install(folder);
    jsonServer = require(join(folder, 'node_modules', 'json-server')) as typeof jsonServer;
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  for (const name of ['trestle', 'trestle/v4', 'trestle/legacy']) {
    test(`${name}: its REST routes listed under the mount path, served over HTTP, in the OpenAPI document`, async () => {
      const trestle = require(name) as Entry;
      const app = trestle();
      app.use('/api', jsonServer.router({ posts: [{ id: 1, title: 'hello' }], comments: [{ id: 1, postId: 1, body: 'hi' }], profile: { name: 'typicode' } }));
      const list = trestle.routes(app);
      const lines = list.map(line);
      for (const expected of ['GET /api/db', 'GET,POST /api/posts', 'GET,PUT,PATCH,DELETE /api/posts/:id', 'GET,POST /api/comments', 'GET,PUT,PATCH,DELETE /api/comments/:id', 'GET,POST,PUT,PATCH /api/profile']) {
        assert.ok(lines.includes(expected), `no "${expected}" in ${JSON.stringify(lines)}`);
      }
      const show = list.find((r) => line(r) === 'GET,PUT,PATCH,DELETE /api/posts/:id')!;
      assert.deepEqual(show.params, ['id']);
      assert.deepEqual(show.handlers, ['show', 'update', '<anonymous>', 'destroy']);
      assert.equal(show.syntax, 'v4', 'json-server\'s router is Express 4\'s: its paths are v4 syntax');
      const document = trestle.openapi(app, { info: { title: 'json-server', version: '0.17.4' } });
      assert.deepEqual(Object.keys(document.paths['/api/posts/{id}'] ?? {}).sort(), ['delete', 'get', 'patch', 'put']);
      // The listing is of the app that runs: the routes it names answer.
      const server = await listen(app);
      try {
        assert.deepEqual(await get(server, '/api/posts/1'), { status: 200, body: { id: 1, title: 'hello' } });
        assert.deepEqual(await get(server, '/api/profile'), { status: 200, body: { name: 'typicode' } });
      } finally {
        server.close();
      }
    });
  }
});

describe('routes: routers of Express\'s own packages, mount paths read back from their layers', () => {
  for (const name of ['trestle', 'trestle/v4', 'trestle/legacy']) {
    test(`${name}: Express 4's use() paths (plain, with parameters, a regexp) and Express 5's`, () => {
      const trestle = require(name) as Entry;
      const express4 = require('express4') as { Router: RouterFactory };
      const express5 = require('express5') as { Router: RouterFactory };
      const leaf = express4.Router();
      leaf.get('/:id', function show() {});
      const four = express4.Router();
      four.use('/users/:uid/files.v2', leaf);
      four.use(/^\/re/, leaf);
      four.use(leaf);
      const five = express5.Router();
      five.use('/posts/:pid', leaf);
      const app = trestle();
      app.use('/e4', four);
      app.use('/e5', five);
      const list = trestle.routes(app);
      assert.deepEqual(list.map(line), ['GET /e4/users/:uid/files.v2/:id', `GET /e4${String(/^\/re/)}/:id`.replace('//', '/'), 'GET /e4/:id', 'GET /e5/posts/:pid/:id']);
      assert.deepEqual(list.map((r) => r.params), [['uid', 'id'], ['id'], ['id'], ['pid', 'id']]);
      assert.deepEqual(list.map((r) => r.openapi), [true, false, true, true]);
    });
  }
});
