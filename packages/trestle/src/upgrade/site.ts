// Where in the app a call came from: the first stack frame that is neither
// trestle's (its built files) nor node's own. A frame in node_modules is
// passed over too, in favour of the app's own code; when only dependencies
// are on the stack (a middleware package called the form), the first of
// them is the place, with its package named.
import { sep, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Site {
  /** Absolute path of the file. */
  file: string;
  line: number;
  column: number;
  /** The package the file belongs to, when it is in node_modules. */
  dependency?: string;
}

// dist/ (this file is dist/upgrade/site.js) and the forwarders of Express's file paths.
const root = resolve(__dirname, '..', '..');
const OWN = [resolve(root, 'dist') + sep, resolve(root, 'lib') + sep, resolve(root, 'v4', 'lib') + sep, resolve(root, 'src') + sep];

/** `at fn (file:line:col)` or `at file:line:col`: the location at the end of the line. */
const FRAME = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?$/;
const NODE_MODULES = `${sep}node_modules${sep}`;
// The report's own frames (wrappers, checks): never the place, never the reader.
const REPORT = __dirname + sep;

function fileOf(location: string): string | undefined {
  if (location.startsWith('file://')) return fileURLToPath(location);
  return location.startsWith('/') || /^[A-Za-z]:\\/.test(location) ? location : undefined;
}

function dependencyOf(file: string): string | undefined {
  const at = file.lastIndexOf(NODE_MODULES);
  if (at === -1) return undefined;
  const parts = file.slice(at + NODE_MODULES.length).split(sep);
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/**
 * How a stack is read. `caller`: the frame right below the report's own is
 * the place (the app's or a dependency's); when it is trestle's, trestle
 * did it for itself and there is no place (a middleware's `next()` further
 * down the stack is not the one reading). `app`: the first frame of the
 * app's own code, trestle's and dependencies' passed over (a route that
 * `app.get` or a router package registers, an error made deep in a
 * database driver), else the first dependency's.
 */
export type StackReading = 'caller' | 'app';

/** The place in a stack trace (as `Error#stack` writes it), read as `reading` says; undefined when there is none. */
export function siteIn(stack: string | undefined, reading: StackReading): Site | undefined {
  if (typeof stack !== 'string') return undefined;
  let fallback: Site | undefined;
  for (const text of stack.split('\n')) {
    const match = FRAME.exec(text.trim());
    if (match === null || !text.trimStart().startsWith('at ')) continue;
    const file = fileOf(match[1]!);
    if (file === undefined || file.startsWith(REPORT)) continue;
    if (OWN.some((dir) => file.startsWith(dir))) {
      if (reading === 'caller') return undefined;
      continue;
    }
    const site: Site = { file, line: Number(match[2]), column: Number(match[3]) };
    const dependency = dependencyOf(file);
    if (dependency === undefined) return site;
    if (reading === 'caller') return { ...site, dependency };
    fallback ??= { ...site, dependency };
  }
  return fallback;
}

/** The place that called into trestle, right now. */
export function callSite(reading: StackReading): Site | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack;
  Error.stackTraceLimit = limit;
  return siteIn(stack, reading);
}
