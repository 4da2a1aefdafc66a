// Is a read of `req.body` already guarded against the `undefined` Express 5
// leaves there? Read from the app's own source at the place of the read
// (V8 gives the column of the `body` name): `req.body || {}`, `req.body ?? x`,
// `req.body?.x`, a check (`typeof req.body`, `!req.body`, `req.body ===
// undefined`, `if (req.body)`, `req.body && ...`), a read after a check of the
// same line, or a destructuring default (`const { body = {} } = req`).
// A guarded read changes nothing on Express 5: the report lists it apart.
import { readFileSync } from 'node:fs';
import type { Site } from './site';

/** How a read is guarded: `check` tests the value (later reads after it are guarded too), `guarded` copes with undefined. */
export interface Guard {
  how: 'check' | 'guarded';
  /** The guard, as the report names it. */
  reason: string;
}

const sources = new Map<string, string[] | undefined>();

function lineOf(file: string, line: number): string | undefined {
  let lines = sources.get(file);
  if (!sources.has(file)) {
    try {
      lines = readFileSync(file, 'utf8').split('\n');
    } catch {
      lines = undefined;
    }
    // Bounded: a test run reads a few hundred files at most.
    if (sources.size < 2000) sources.set(file, lines);
  }
  return lines?.[line - 1];
}

const AFTER: Array<[RegExp, Guard]> = [
  [/^\?\./, { how: 'guarded', reason: 'optional chaining (`req.body?.x`)' }],
  [/^(\|\||\?\?)/, { how: 'guarded', reason: 'a default (`req.body || {}`, `req.body ?? {}`)' }],
  [/^(===?|!==?)\s*(undefined|null|void 0)\b/, { how: 'check', reason: 'a check for undefined (`req.body === undefined`)' }],
  [/^&&/, { how: 'check', reason: 'a check (`req.body && ...`)' }],
  [/^\?[^.?]/, { how: 'check', reason: 'a check (`req.body ? ... : ...`)' }],
];

const BEFORE: Array<[RegExp, Guard]> = [
  [/typeof\s+$/, { how: 'check', reason: 'a typeof check (`typeof req.body`)' }],
  [/!\s*$/, { how: 'check', reason: 'a check (`!req.body`)' }],
  [/(undefined|null|void 0)\s*(===?|!==?)\s*$/, { how: 'check', reason: 'a check for undefined' }],
];

/** The guard of the read of `body` at `site` (its column is the name's), if the source shows one. */
export function guardOf(site: Site): Guard | undefined {
  const text = lineOf(site.file, site.line);
  if (text === undefined) return undefined;
  const at = site.column - 1;
  if (text.slice(at, at + 4) !== 'body') return undefined;
  const after = text.slice(at + 4).trimStart();
  // `const { body = {} } = req`: a destructuring default.
  if (/[{,]\s*$/.test(text.slice(0, at)) && /^=[^=>]/.test(after)) return { how: 'guarded', reason: 'a destructuring default (`const { body = {} } = req`)' };
  // The receiver (`req.`, `request.`, `this.req.`) is not part of what is tested.
  const before = text.slice(0, at).replace(/[\w$.]*\.\s*$/, '');
  if (/^\)/.test(after) && /\bif\s*\(\s*$/.test(before)) return { how: 'check', reason: 'a check (`if (req.body)`)' };
  for (const [re, guard] of AFTER) if (re.test(after)) return guard;
  for (const [re, guard] of BEFORE) if (re.test(before)) return guard;
  // `req.body && req.body.x`, `req.body ? req.body.x : {}`: a read after a check on the same line.
  if (/\bbody\s*(&&|\?[^.?])/.test(before)) return { how: 'guarded', reason: 'after a check on the same line (`req.body && req.body.x`)' };
  return undefined;
}
