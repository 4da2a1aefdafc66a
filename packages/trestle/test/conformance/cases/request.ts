// The request: what `req.query` is under each `query parser` setting.
import type { Answer, Case, CaseApp, Handler } from '../harness';

const ok = (body: string): Answer => ({ status: 200, body });

/** Whether `req.query` has a prototype, and what it holds. */
const queryShape: Handler = (req, res) => {
  const proto = Object.getPrototypeOf(req.query) === null ? 'null' : 'Object';
  res.send(`${proto} ${JSON.stringify(req.query)}`);
};

function queryCase(name: string, configure: (app: CaseApp) => void, answers: Pick<Case, 'expect' | 'v4' | 'legacy'>): Case {
  return {
    name,
    setup: (app) => {
      configure(app);
      app.get('/q', queryShape);
    },
    send: [{ path: '/q?a[b]=1' }, { path: '/q' }],
    ...answers,
  };
}

const nested = [ok('Object {"a":{"b":"1"}}'), ok('Object {}')];
const flat = [ok('null {"a[b]":"1"}'), ok('null {}')];

export const requestCases: Case[] = [
  queryCase('req.query by default', () => undefined, { expect: flat, v4: nested, legacy: nested }),
  queryCase("req.query with query parser 'simple'", (app) => app.set('query parser', 'simple'), { expect: flat }),
  queryCase("req.query with query parser 'extended'", (app) => app.set('query parser', 'extended'), { expect: nested }),
  queryCase('req.query with query parser off', (app) => app.set('query parser', false), {
    expect: [ok('null {}'), ok('null {}')],
    v4: [ok('Object {}'), ok('Object {}')],
    legacy: [ok('Object {}'), ok('Object {}')],
  }),
  queryCase('req.query with no query parser fn', (app) => app.set('query parser fn', undefined), {
    expect: [ok('null {}'), ok('null {}')],
    v4: nested,
    legacy: nested,
  }),
];
