// The same app over HTTP/2 (TLS with ALPN, HTTP/1.1 allowed) and over
// cleartext h2c, as docs/http2.md shows. For local use it makes a
// self-signed certificate with openssl; pass your own with TLS_KEY/TLS_CERT.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http2 = require('node:http2');
const os = require('node:os');
const path = require('node:path');
const trestle = require('trestle');
const logger = require('logline-http');

function createApp() {
  const app = trestle();
  app.use(logger(':http-version :remote-addr :method :url :status :res[content-length] - :response-time ms'));
  app.use(trestle.json());

  app.get('/', (req, res) => {
    res.format({
      html: () => res.send(`<h1>Hello over HTTP/${req.httpVersion}</h1><p>${req.protocol}://${req.get('host')}${req.originalUrl}</p>`),
      json: () => res.json({ httpVersion: req.httpVersion, protocol: req.protocol, host: req.get('host') }),
    });
  });
  app.post('/echo', (req, res) => res.json({ received: req.body }));
  // Set for HTTP/1.1 clients; dropped on HTTP/2 streams, where it is forbidden.
  app.get('/keep-alive', (req, res) => res.set('Connection', 'keep-alive').send(`served over HTTP/${req.httpVersion}`));
  return app;
}

/** A self-signed certificate for localhost in a temporary folder, made with openssl. */
function localCertificate() {
  if (process.env.TLS_KEY && process.env.TLS_CERT) {
    return { key: fs.readFileSync(process.env.TLS_KEY), cert: fs.readFileSync(process.env.TLS_CERT) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trestle-h2-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '30', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  } catch {
    console.error('openssl is needed to make a local certificate (apt-get install openssl), or set TLS_KEY and TLS_CERT to your own PEM files.');
    process.exit(1);
  }
  const pair = { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
  fs.rmSync(dir, { recursive: true, force: true });
  return pair;
}

if (require.main === module) {
  const app = createApp();
  const port = Number(process.env.PORT) || 8443;
  const h2cPort = Number(process.env.H2C_PORT) || 8080;
  http2.createSecureServer({ ...localCertificate(), allowHTTP1: true }, app).listen(port, () => {
    console.log(`HTTP/2 over TLS (and HTTP/1.1): https://localhost:${port}  (self-signed: accept it in the browser, or curl -k)`);
  });
  http2.createServer(app).listen(h2cPort, () => {
    console.log(`h2c (cleartext, prior knowledge): curl --http2-prior-knowledge http://localhost:${h2cPort}/`);
  });
}

module.exports = createApp;
