// Views: the objects an app keeps them in, as apps and view tools read them.
import type { Case } from '../harness';

const protoName = (o: unknown): string => (o === undefined ? 'undefined' : Object.getPrototypeOf(o) === null ? 'null' : 'Object');

export const viewCases: Case[] = [
  {
    name: 'app.cache and app.engines, the view caches',
    setup: (app) => {
      app.get('/', (req, res) => res.send(`cache ${protoName(req.app.cache)}, engines ${protoName(req.app.engines)}`));
    },
    send: [{ path: '/' }],
    expect: [{ status: 200, body: 'cache null, engines null' }],
    v4: [{ status: 200, body: 'cache Object, engines Object' }],
    legacy: [{ status: 200, body: 'cache Object, engines Object' }],
  },
];
