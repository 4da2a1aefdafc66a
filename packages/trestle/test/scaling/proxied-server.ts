// One of the trestle processes behind nginx (scaling-proxy.test.ts):
// `trust proxy` names the proxy's address, so X-Forwarded-* from it are
// believed and the same headers from anyone else are not. Run as a child of
// the test: `proxied-server.ts <trust proxy>`.
//
// IPC: sends {type:'listening', port, pid}; {type:'log', line} for each
// access-log line (logline's :remote-addr is req.ip); on {type:'close'}
// closes and exits with code 0.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import session from 'express-session';
import logger from 'logline-http';
import trestle from 'trestle';
import './session-data';

const trustProxy = process.argv[2];
if (trustProxy === undefined) throw new Error('usage: proxied-server.ts <trust proxy>');
const send = (message: object): void => void process.send?.(message);

const app = trestle();
app.set('env', 'test');
app.set('trust proxy', trustProxy);
app.use(logger(':remote-addr :method :url :status', { stream: { write: (line: string) => send({ type: 'log', line }) } }));
// A secure cookie: set only on a request that came in over HTTPS, which
// behind a TLS-terminating proxy req.secure knows from X-Forwarded-Proto.
app.use(session({ secret: 'shared by every process', name: 'sid', resave: false, saveUninitialized: false, cookie: { secure: true } }));

app.get('/whoami', (req, res) => {
  res.json({ pid: process.pid, ip: req.ip, ips: req.ips, protocol: req.protocol, secure: req.secure, hostname: req.hostname });
});
app.post('/login', (req, res, next) => {
  req.session.regenerate((err) => {
    if (err) return next(err);
    req.session.user = 'ada';
    res.json({ pid: process.pid, secure: req.secure });
  });
});

const server = http.createServer(app);
process.on('message', (m: { type: string }) => {
  if (m.type !== 'close') return;
  server.close(() => process.disconnect?.());
  server.closeIdleConnections();
});
server.listen(0, '127.0.0.1', () => send({ type: 'listening', port: (server.address() as AddressInfo).port, pid: process.pid }));
