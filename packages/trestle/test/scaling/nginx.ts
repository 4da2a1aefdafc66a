// A private nginx (Debian's package) for a test, with the configuration
// docs/production.md gives (read from the doc), bound to 127.0.0.1 on a free
// port (and, with `tls`, a second one terminating TLS with the fixtures'
// self-signed certificate for localhost), its config, logs and temporary
// files in a temporary directory, in front of backends on given ports. It accepts connections before start()
// resolves; stop() ends it (SIGQUIT, then SIGKILL) within bounded time.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  /** Also listen with TLS (the fixtures' certificate) on `httpsPort`. */
  tls?: boolean;
}

const PRODUCTION_DOC = join(__dirname, '..', '..', '..', '..', 'docs', 'production.md');

/**
 * The `upstream` and `server` blocks exactly as docs/production.md gives them
 * under "Behind nginx", read from the doc itself (docs and tests cannot
 * drift), with only the addresses made this test's: its backends for the
 * example ones, 127.0.0.1 and a free port for `listen 80`.
 */
export function documentedConfig(port: number, httpsPort: number | undefined, backends: number[]): string {
  const doc = readFileSync(PRODUCTION_DOC, 'utf8');
  const section = doc.slice(doc.indexOf('## Behind nginx'));
  const block = /```nginx\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error(`no nginx block under "## Behind nginx" in ${PRODUCTION_DOC}`);
  const backendLine = /^(\s*)server \d+\.\d+\.\d+\.\d+:\d+(.*)$/gm;
  const first = backendLine.exec(block);
  if (first === null) throw new Error('the documented nginx block has no `server <address>:<port>` line in its upstream');
  const backendLines = backends.map((p) => `${first[1]}server 127.0.0.1:${p}${first[2]}`).join('\n');
  let config = block.replace(backendLine, (_line, _indent, _rest, offset: number) => (offset === first.index ? backendLines : '')).replace(/\n\s*\n/g, '\n');
  const tlsLines = httpsPort === undefined ? '' : ` listen 127.0.0.1:${httpsPort} ssl; ssl_certificate ${TLS_DIR}/cert.pem; ssl_certificate_key ${TLS_DIR}/key.pem;`;
  if (!/^\s*listen 80;$/m.test(config)) throw new Error('the documented nginx block has no `listen 80;` line');
  config = config.replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${port};${tlsLines}`);
  return config;
}

/** The documented blocks inside what a private nginx needs: its pid, logs and temporary files in `dir`. */
function config(dir: string, port: number, httpsPort: number | undefined, backends: number[]): string {
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
${documentedConfig(port, httpsPort, backends)}
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
    writeFileSync(conf, config(nginx.dir, nginx.port, nginx.httpsPort, backends));
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

  /** nginx's error log so far (its `recv() failed` lines say which upstream connection broke). */
  errors(): string {
    try {
      return readFileSync(join(this.dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
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
