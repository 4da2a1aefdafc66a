// `trestle upgrade-report` run as a user runs it, for the tests of test/upgrade/.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const CLI = resolve(__dirname, '..', '..', 'dist', 'upgrade', 'cli.js');
export const FIXTURES = join(__dirname, '..', 'fixtures', 'upgrade');

/** Runs the command; its exit code, stdout and stderr (bounded: 30 s). */
export function command(args: string[], cwd = FIXTURES): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`trestle ${args.join(' ')} did not exit within 30 s: ${stderr}`));
    }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}
