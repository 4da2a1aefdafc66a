// A production app run as a child of the lifecycle tests:
// `server.ts <entry> <log file | -> [port]`. It logs each request with
// logline to the file, ends the log stream as a shutdown hook, and shuts
// down on SIGTERM/SIGINT with trestle.shutdownOnSignals (a second signal ends
// it at once).
//
// IPC to the test: {type:'listening', port, pid}; {type:'entered', path}
// when a /slow or /hang handler has the request; {type:'report', report}
// before it exits. POST /orders records the id it carries (`<log file>.orders`).
import { appendFileSync, createWriteStream } from 'node:fs';
import type { AddressInfo } from 'node:net';
import logger from 'logline-http';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';

const [entry = 'trestle', logFile = '-', port = '0'] = process.argv.slice(2);
const factories = { trestle, 'trestle/v4': trestleV4, 'trestle/legacy': trestleLegacy } as unknown as Record<string, typeof trestle>;
const factory = factories[entry]!;
/** Resolves once the message is handed to the IPC channel (the process may exit right after). */
const send = (message: object): Promise<void> => new Promise((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()));

const app = factory();
app.set('trust proxy', 'loopback');
if (logFile !== '-') {
  const log = createWriteStream(logFile, { flags: 'a' });
  app.use(logger(':method :url :status :res[content-length] pid=' + process.pid, { stream: log }));
  // Every answered request's line reaches the file before the process exits.
  app.onShutdown(() => new Promise<void>((resolve) => log.end(resolve)));
}
app.use(factory.text({ type: '*/*' }));
app.get('/health', (req, res) => {
  res.status(req.app.shuttingDown ? 503 : 200).send(req.app.shuttingDown ? 'shutting down' : 'ok');
});
app.get('/fast', (_req, res) => {
  res.send('fast');
});
app.get('/slow', (req, res) => {
  void send({ type: 'entered', path: req.url });
  setTimeout(() => res.send('slow'), Number(req.query.ms ?? 200));
});
app.get('/hang', (req) => void send({ type: 'entered', path: req.url }));
app.post('/echo', (req, res) => {
  res.send(`${String(req.body).length}`);
});
// A POST that must run once: its id is recorded (synchronously, before the
// answer) in `<log file>.orders` with this process's pid, then answered 201.
app.post('/orders', (req, res) => {
  const id = String(req.body);
  if (logFile !== '-') appendFileSync(`${logFile}.orders`, `${id} pid=${process.pid}\n`);
  res.status(201).send(id);
});

const server = app.listen(Number(port), '127.0.0.1', () => {
  void send({ type: 'listening', port: (server.address() as AddressInfo).port, pid: process.pid });
});
factory.shutdownOnSignals(app, { timeout: '20s', onReport: (report) => send({ type: 'report', report }) });
