// res.redirect: status, Location, the body chosen by Accept, HEAD.
import type { Case } from '../harness';

export const redirectCases: Case[] = [
  {
    name: 'redirect is a 302 with Location and an HTML body for browsers',
    setup: (app) => app.get('/', (_req, res) => res.redirect('/to')),
    send: [{ path: '/', headers: { accept: 'text/html' } }],
    expect: [{ status: 302, body: '<!DOCTYPE html><head><title>Found</title></head><body><p>Found. Redirecting to /to</p></body>', headers: { location: '/to', 'content-type': 'text/html; charset=utf-8' } }],
    v4: [{ status: 302, body: '<p>Found. Redirecting to /to</p>', headers: { location: '/to', 'content-type': 'text/html; charset=utf-8' } }],
    legacy: [{ status: 302, body: '<p>Found. Redirecting to <a href="/to">/to</a></p>', headers: { location: '/to', 'content-type': 'text/html; charset=UTF-8' } }],
  },
  {
    name: 'redirect body as text',
    setup: (app) => app.get('/', (_req, res) => res.redirect('/to')),
    send: [{ path: '/', headers: { accept: 'text/plain' } }],
    expect: [{ status: 302, body: 'Found. Redirecting to /to', headers: { 'content-type': 'text/plain; charset=utf-8' } }],
    legacy: [{ status: 302, body: 'Found. Redirecting to /to', headers: { 'content-type': 'text/plain; charset=UTF-8' } }],
  },
  {
    name: 'redirect body when the client accepts neither',
    setup: (app) => app.get('/', (_req, res) => res.redirect('/to')),
    send: [{ path: '/', headers: { accept: 'image/png' } }],
    expect: [{ status: 302, body: '', headers: { location: '/to' } }],
  },
  {
    name: 'redirect without Accept',
    setup: (app) => app.get('/', (_req, res) => res.redirect('/to')),
    send: [{ path: '/' }],
    expect: [{ status: 302, body: 'Found. Redirecting to /to' }],
  },
  {
    name: 'redirect(status, url)',
    setup: (app) => app.get('/', (_req, res) => res.redirect(301, '/moved')),
    send: [{ path: '/', headers: { accept: 'text/plain' } }],
    expect: [{ status: 301, body: 'Moved Permanently. Redirecting to /moved', headers: { location: '/moved' } }],
  },
  {
    name: 'redirect(url, status), the old order',
    setup: (app) => app.get('/', (_req, res) => (res.redirect as (a: unknown, b: unknown) => unknown)('/moved', 301)),
    send: [{ path: '/', headers: { accept: 'text/plain' } }],
    expect: [{ status: 500, body: /Internal Server Error/ }],
    v4: [{ status: 301, body: 'Moved Permanently. Redirecting to /moved', headers: { location: '/moved' } }],
    legacy: [{ status: 301, body: 'Moved Permanently. Redirecting to /moved', headers: { location: '/moved' } }],
  },
  {
    name: 'HEAD of a redirect has no body',
    setup: (app) => app.get('/', (_req, res) => res.redirect('/to')),
    send: [{ method: 'HEAD', path: '/', headers: { accept: 'text/html' } }],
    expect: [{ status: 302, body: '', headers: { location: '/to' } }],
  },
  {
    name: 'redirect encodes the URL and escapes it in the HTML body',
    setup: (app) => app.get('/', (_req, res) => res.redirect('/a b?q=<x>&y="z"')),
    send: [{ path: '/', headers: { accept: 'text/html' } }],
    expect: [{ status: 302, body: '<!DOCTYPE html><head><title>Found</title></head><body><p>Found. Redirecting to /a%20b?q=%3Cx%3E&amp;y=%22z%22</p></body>', headers: { location: '/a%20b?q=%3Cx%3E&y=%22z%22' } }],
    v4: [{ status: 302, body: '<p>Found. Redirecting to /a%20b?q=%3Cx%3E&amp;y=%22z%22</p>', headers: { location: '/a%20b?q=%3Cx%3E&y=%22z%22' } }],
    legacy: [{ status: 302, body: '<p>Found. Redirecting to <a href="/a b?q=&lt;x&gt;&amp;y=&quot;z&quot;">/a b?q=&lt;x&gt;&amp;y=&quot;z&quot;</a></p>', headers: { location: '/a b?q=<x>&y="z"' } }],
  },
  {
    name: 'redirect to an absolute URL',
    setup: (app) => app.get('/', (_req, res) => res.redirect('http://example.com/x')),
    send: [{ path: '/', headers: { accept: 'text/plain' } }],
    expect: [{ status: 302, body: 'Found. Redirecting to http://example.com/x', headers: { location: 'http://example.com/x' } }],
  },
  {
    name: 'a relative redirect',
    setup: (app) => app.get('/a/b', (_req, res) => res.redirect('c')),
    send: [{ path: '/a/b', headers: { accept: 'text/plain' } }],
    expect: [{ status: 302, headers: { location: 'c' } }],
    legacy: [{ status: 302, headers: { location: '/c' } }],
  },
  {
    name: 'relative redirects in a mounted app',
    setup: (app, fw) => {
      const sub = fw();
      sub.get('/x', (_req, res) => res.redirect('login'));
      sub.get('/a/b', (_req, res) => res.redirect('./c'));
      sub.get('/up/b', (_req, res) => res.redirect('../d?q=1'));
      sub.get('/abs', (_req, res) => res.redirect('//cdn.example.com/y'));
      app.use('/admin', sub);
    },
    send: ['/admin/x', '/admin/a/b', '/admin/up/b', '/admin/abs'].map((path) => ({ path, headers: { accept: 'text/plain' } })),
    expect: [
      { status: 302, headers: { location: 'login' } },
      { status: 302, headers: { location: './c' } },
      { status: 302, headers: { location: '../d?q=1' } },
      { status: 302, headers: { location: '//cdn.example.com/y' } },
    ],
    legacy: [
      { status: 302, headers: { location: '/admin/login' } },
      { status: 302, headers: { location: '/admin/a/b/c' } },
      { status: 302, headers: { location: '/admin/up/d?q=1' } },
      { status: 302, headers: { location: '//cdn.example.com/y' } },
    ],
  },
  {
    name: "redirect('back')",
    setup: (app) => app.get('/', (_req, res) => res.redirect('back')),
    send: [{ path: '/', headers: { accept: 'text/plain', referer: '/prev' } }],
    expect: [{ status: 302, headers: { location: 'back' } }],
    v4: [{ status: 302, headers: { location: '/prev' } }],
    legacy: [{ status: 302, headers: { location: '/prev' } }],
  },
  {
    name: 'redirect with status 303 from a POST',
    setup: (app) => app.post('/', (_req, res) => res.redirect(303, '/done')),
    send: [{ method: 'POST', path: '/', headers: { accept: 'text/plain' } }],
    expect: [{ status: 303, body: 'See Other. Redirecting to /done' }],
  },
];
