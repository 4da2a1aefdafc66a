// One of several identical trestle processes that keep their state in Redis:
// sessions through express-session + connect-redis, rate limits through
// express-rate-limit + rate-limit-redis. Run as a child of the test:
// `session-server.ts <redis port>`; the app itself is docs/scaling.md's recipe.
//
// IPC: sends {type:'listening', port, pid}; on {type:'close'} shuts down
// gracefully (server, then the Redis client) and exits with code 0.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RedisStore as SessionStore } from 'connect-redis';
import { rateLimit } from 'express-rate-limit';
import session from 'express-session';
import { RedisStore as RateLimitStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import trestle from 'trestle';
import type { ErrorRequestHandler } from 'trestle';
import './session-data';

const redisPort = process.argv[2];
if (redisPort === undefined) throw new Error('usage: session-server.ts <redis port>');
const send = (message: object): void => void process.send?.(message);

const redis = createClient({
  url: `redis://127.0.0.1:${redisPort}`,
  // While Redis is unreachable a command fails at once (and the request with
  // a 503) instead of waiting in a queue until Redis is back.
  disableOfflineQueue: true,
  // Retry every 100 ms, then every second, for as long as it takes.
  socket: { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(100 * (retries + 1), 1_000) },
});
// Without a listener, the client's 'error' event would end the process.
let reported = false;
redis.on('error', (error: Error) => {
  if (!reported) console.error(`redis unreachable, retrying: ${error.message}`);
  reported = true;
});
redis.on('ready', () => (reported = false));

/** The app: everything in it that keeps state keeps it in Redis. */
function makeApp() {
  const app = trestle();
  app.set('env', 'test');
  app.use(trestle.json());
  app.use(
    session({
      store: new SessionStore({ client: redis, prefix: 'sess:' }),
      secret: 'one secret shared by every process',
      name: 'sid',
      resave: false,
      saveUninitialized: false,
    }),
  );

  // Four requests a minute per client, counted across every process. Made once
  // the client is connected: the store loads its scripts into Redis at once.
  const limited = rateLimit({
    windowMs: 60_000,
    limit: 4,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    store: new RateLimitStore({ prefix: 'rl:', sendCommand: (...args: string[]) => redis.sendCommand(args) }),
  });

  app.get('/health', (_req, res) => res.json({ pid: process.pid, redis: redis.isReady }));
  app.get('/api/ping', limited, (_req, res) => res.json({ pid: process.pid }));

  app.post('/login', (req, res, next) => {
    const user = (req.body as { user?: unknown }).user;
    if (typeof user !== 'string') return res.sendStatus(400);
    // A new session id at login (no fixation), saved before the answer says so.
    req.session.regenerate((err) => {
      if (err) return next(err);
      req.session.user = user;
      req.session.save((saveErr) => (saveErr ? next(saveErr) : res.json({ user, pid: process.pid })));
    });
  });

  app.get('/me', (req, res) => {
    if (req.session.user === undefined) return res.status(401).json({ pid: process.pid });
    res.json({ user: req.session.user, pid: process.pid });
  });

  app.post('/logout', (req, res, next) => {
    req.session.destroy((err) => (err ? next(err) : res.json({ pid: process.pid })));
  });

  /** Redis down: a 503 that says so and when to retry, not a generic 500. */
  const storeDown: ErrorRequestHandler = (err, _req, res, next) => {
    if (redis.isReady) return next(err);
    res.status(503).set('Retry-After', '1').json({ error: 'session and rate-limit store unavailable', pid: process.pid });
  };
  app.use(storeDown);
  return app;
}

const server = http.createServer();

process.on('message', (m: { type: string }) => {
  if (m.type !== 'close') return;
  server.close(() => {
    void redis.close().finally(() => process.disconnect?.());
  });
  server.closeIdleConnections();
});

void redis.connect().then(() => {
  server.on('request', makeApp());
  server.listen(0, '127.0.0.1', () => send({ type: 'listening', port: (server.address() as AddressInfo).port, pid: process.pid }));
});
