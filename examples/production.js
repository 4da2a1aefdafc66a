// An app ready for production behind a load balancer (docs/production.md):
// access log to a file that loses no line, a readiness route, request
// deadlines with req.signal passed on, server limits, and a graceful
// shutdown on SIGTERM/SIGINT (a second signal ends the process at once).
//
//   NODE_ENV=production PORT=3000 LOG_FILE=access.log node examples/production.js
//
// NODE_ENV=production is what makes it a production app: without it, JSON is
// indented and the default error page shows stack traces.
'use strict';
const fs = require('node:fs');
const { setTimeout: sleep } = require('node:timers/promises');
const trestle = require('trestle');
const logger = require('logline-http');

/** A stand-in for a database client: its queries honour an AbortSignal, and it closes. */
function createDatabase() {
  return {
    open: true,
    async query(sql, { signal } = {}) {
      await sleep(sql.includes('slow') ? 10_000 : 5, undefined, { signal });
      return [{ sql }];
    },
    async close() {
      this.open = false;
    },
  };
}

function createApp({ logStream = process.stdout, db = createDatabase() } = {}) {
  const app = trestle();
  // Behind nginx or a cloud load balancer on the same network (docs/scaling.md).
  app.set('trust proxy', 'loopback, uniquelocal');
  // No request may take longer than this to start its answer.
  app.set('request deadline', '5s');
  app.use(logger('combined', { stream: logStream }));
  app.use(trestle.json());

  // Readiness: 503 from the moment the shutdown begins, so the balancer stops sending.
  app.get('/health', (req, res) => {
    if (req.app.shuttingDown) res.status(503).send('draining');
    else res.send('ok');
  });

  app.get('/books', async (req, res) => {
    // The query stops if the client goes away or the deadline passes.
    res.json(await db.query('SELECT * FROM books', { signal: req.signal }));
  });

  // A report may take longer than the app's deadline; this route gets 30 s.
  app.get('/report', trestle.deadline('30s'), async (req, res) => {
    res.json(await db.query('SELECT slow report', { signal: req.signal }));
  });

  app.post('/books', (req, res) => {
    res.status(201).json({ created: req.body });
  });

  app.use((err, req, res, next) => {
    if (err.code === 'TRESTLE_ERR_DEADLINE_EXCEEDED') return res.status(503).json({ error: 'Timed out, try again' });
    if (err.name === 'AbortError' || err.name === 'TimeoutError') return next(); // the client left: nothing to answer
    const status = err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) console.error(err.stack);
    res.status(status).json({ error: status === 500 ? 'Internal Server Error' : err.message });
  });

  // Run after the servers have closed: every answered request is logged by then.
  app.onShutdown(() => db.close());
  if (logStream !== process.stdout) app.onShutdown(() => new Promise((resolve) => logStream.end(resolve)));
  return app;
}

if (require.main === module) {
  const logStream = process.env.LOG_FILE ? fs.createWriteStream(process.env.LOG_FILE, { flags: 'a' }) : process.stdout;
  const app = createApp({ logStream });
  const port = Number(process.env.PORT) || 3000;
  app.listen(port, () => console.error(`listening on http://localhost:${port}`));
  trestle.shutdownOnSignals(app, {
    readinessDelay: process.env.READINESS_DELAY || 0, // e.g. '5s' behind a balancer that polls /health
    timeout: '20s', // below the supervisor's SIGKILL (Kubernetes waits 30 s)
    onReport: (report) => console.error('shutdown', JSON.stringify(report)),
  });
}

module.exports = createApp;
