// The comparison backend of the rolling restart (docs/production.md): the
// routes of server.ts on Express 5 with morgan, shut down by the usual recipe,
// `server.close()` on SIGTERM, then the log ended and the process exited.
// `express-server.ts express5 <log file> [port]`; IPC as server.ts.
import { createWriteStream } from 'node:fs';
import type { AddressInfo } from 'node:net';
import morgan from 'morgan';
import type trestle from 'trestle';

// The real Express 5 (the devDependency alias), typed by trestle's types of its API.
const express = require('express5') as typeof trestle;

const [, logFile = '-', port = '0'] = process.argv.slice(2);
const send = (message: object): Promise<void> => new Promise((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()));

const app = express();
const log = createWriteStream(logFile, { flags: 'a' });
app.set('trust proxy', 'loopback');
app.use(morgan(':method :url :status :res[content-length] pid=' + process.pid, { stream: log }));
app.use(express.text({ type: '*/*' }));
app.get('/fast', (_req, res) => {
  res.send('fast');
});
app.get('/slow', (req, res) => {
  setTimeout(() => res.send('slow'), Number(req.query.ms ?? 200));
});
app.post('/echo', (req, res) => {
  res.send(`${String(req.body).length}`);
});

const server = app.listen(Number(port), '127.0.0.1', () => {
  void send({ type: 'listening', port: (server.address() as AddressInfo).port, pid: process.pid });
});
process.on('SIGTERM', () => {
  server.close(() => log.end(() => void send({ type: 'report', report: { cut: 0 } }).then(() => process.exit(0))));
});
