// A fixture app of test/fixtures/upgrade run in a child process on the
// Express its EXPRESS variable names (express4, express5, trestle/v4): it
// prints its port, the test sends requests, the app is stopped.
import { spawn } from 'node:child_process';

/** Runs `app` on `express`, hands its port to `use`, stops it (bounded waits, naming what did not happen). */
export async function withApp<T>(app: string, express: string, env: Record<string, string>, use: (port: number, stderr: () => string) => Promise<T>): Promise<T> {
  const child = spawn(process.execPath, [app], { env: { ...process.env, EXPRESS: express, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the app on ${express} printed no port within 10 s: ${stderr}`)), 10_000);
      child.stdout.once('data', (d: Buffer) => {
        clearTimeout(timer);
        resolve(Number(String(d).trim()));
      });
    });
    return await use(port, () => stderr);
  } finally {
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
  }
}
