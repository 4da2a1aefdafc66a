// Black-box tests for the app express-generator makes (it ships none): the
// app's own `app.js`, served on 127.0.0.1, asked over HTTP what a visitor
// would ask. Run with the app's folder as the working directory; whichever
// Express `require('express')` gives (see express-hook.cjs) serves it.
'use strict';
const assert = require('node:assert/strict');
const http = require('node:http');
const path = require('node:path');
const { after, before, test } = require('node:test');

const app = require(path.resolve('app.js'));
let server;
let base;

before(async () => {
  server = http.createServer(app);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }));

async function get(url, init) {
  const res = await fetch(base + url, init);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

test('the home page renders its view with the title', async () => {
  const res = await get('/');
  assert.equal(res.status, 200);
  assert.match(res.type, /^text\/html/);
  assert.match(res.body, /<title>Express<\/title>/);
  assert.match(res.body, /Welcome to Express/);
});

test('the users router answers at its mount path, with and without a trailing slash, in any case', async () => {
  for (const url of ['/users', '/users/', '/USERS']) {
    const res = await get(url);
    assert.equal(res.status, 200, url);
    assert.equal(res.body, 'respond with a resource', url);
  }
});

test('the stylesheet is served from public/', async () => {
  const res = await get('/stylesheets/style.css');
  assert.equal(res.status, 200);
  assert.match(res.type, /^text\/css/);
  assert.match(res.body, /font: 14px "Lucida Grande"/);
});

test('an unknown path renders the error view with 404', async () => {
  const res = await get('/no/such/page?a[b]=1');
  assert.equal(res.status, 404);
  assert.match(res.type, /^text\/html/);
  assert.match(res.body, /<h1>Not Found<\/h1>/);
});

test('a method no route has is a 404 through the same error view, a JSON body parsed on the way', async () => {
  const res = await get('/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' });
  assert.equal(res.status, 404);
  assert.match(res.body, /<h1>Not Found<\/h1>/);
});

test('a malformed JSON body is a 400 through the error view', async () => {
  const res = await get('/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
  assert.equal(res.status, 400);
  assert.match(res.body, /<h2>400<\/h2>/);
});

test('HEAD on the home page sends the headers and no body', async () => {
  const res = await get('/', { method: 'HEAD' });
  assert.equal(res.status, 200);
  assert.match(res.type, /^text\/html/);
  assert.equal(res.body, '');
});
