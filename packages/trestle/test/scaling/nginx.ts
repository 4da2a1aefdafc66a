// A private nginx (Debian's package) for a test: bound to 127.0.0.1 on a free
// port (and, with `tls`, a second one terminating TLS with the fixtures'
// self-signed certificate for localhost), its config, logs and temporary
// files in a temporary directory, in front of backends on given ports. It accepts connections before start()
// resolves; stop() ends it (SIGQUIT, then SIGKILL) within bounded time.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandMissing, freePort } from './redis';

/** Why the nginx tests cannot run here, or undefined when nginx is installed. */
export function nginxMissing(): string | undefined {
  return commandMissing('nginx', ['-v'], 'nginx is not installed (apt-get install -y nginx)');
}

const TLS_DIR = join(__dirname, '..', 'fixtures', 'tls');

export interface NginxOptions {
  /** Pass POSTs on to the next backend too (`proxy_next_upstream ... non_idempotent`). */
  retryPosts?: boolean;
  /** Also listen with TLS (the fixtures' certificate) on `httpsPort`. */
  tls?: boolean;
}

/**
 * The config: one upstream group with kept-alive connections, as a
 * production nginx in front of node has it. A request whose backend refuses
 * the connection or fails before answering goes to the next one
 * (`proxy_next_upstream error timeout`, nginx's default, which leaves POSTs
 * out); `retryPosts` makes it `error non_idempotent`, which passes POSTs
 * on too when their connection failed, but nothing that timed out.
 * The proxy_set_header lines are docs/scaling.md's recipe: the client's
 * address appended to X-Forwarded-For, X-Forwarded-Proto and
 * X-Forwarded-Host replaced (a client's forged ones never reach the app).
 */
function config(dir: string, port: number, httpsPort: number | undefined, backends: number[], retryPosts: boolean): string {
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  return `${user}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream backends {
${backends.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n')}
    keepalive 32;
    keepalive_timeout 60s;
  }
  server {
    listen 127.0.0.1:${port};
${httpsPort === undefined ? '' : `    listen 127.0.0.1:${httpsPort} ssl;
    ssl_certificate ${TLS_DIR}/cert.pem;
    ssl_certificate_key ${TLS_DIR}/key.pem;
`}    location / {
      proxy_pass http://backends;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $host;
      proxy_next_upstream ${retryPosts ? 'error non_idempotent' : 'error timeout'};
      proxy_next_upstream_tries 4;
    }
  }
}
`;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

export class Nginx {
  private readonly dir = mkdtempSync(join(tmpdir(), 'trestle-nginx-'));
  private proc: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    /** The TLS port, when started with `tls`. */
    readonly httpsPort: number | undefined,
  ) {}

  static async start(backends: number[], options: NginxOptions = {}): Promise<Nginx> {
    const port = await freePort();
    let httpsPort: number | undefined;
    while (options.tls === true && (httpsPort === undefined || httpsPort === port)) httpsPort = await freePort();
    const nginx = new Nginx(port, httpsPort);
    const conf = join(nginx.dir, 'nginx.conf');
    writeFileSync(conf, config(nginx.dir, nginx.port, nginx.httpsPort, backends, options.retryPosts === true));
    nginx.proc = spawn('nginx', ['-p', nginx.dir, '-e', join(nginx.dir, 'error.log'), '-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
    const exited = once(nginx.proc, 'exit');
    for (let i = 0; i < 500; i++) {
      if ((await accepts(nginx.port)) && (nginx.httpsPort === undefined || (await accepts(nginx.httpsPort)))) return nginx;
      if (nginx.proc.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    nginx.proc.kill('SIGKILL');
    await exited;
    throw new Error(`nginx did not start on ${nginx.port}`);
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (proc !== undefined && proc.exitCode === null && proc.signalCode === null) {
      const exited = once(proc, 'exit');
      proc.kill('SIGQUIT');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
