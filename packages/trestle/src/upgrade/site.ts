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

/** The app's place in a stack trace (as `Error#stack` writes it); undefined when it holds only trestle and node. */
export function siteIn(stack: string | undefined): Site | undefined {
  if (typeof stack !== 'string') return undefined;
  let fallback: Site | undefined;
  for (const text of stack.split('\n')) {
    const match = FRAME.exec(text.trim());
    if (match === null || !text.trimStart().startsWith('at ')) continue;
    const file = fileOf(match[1]!);
    if (file === undefined || OWN.some((dir) => file.startsWith(dir))) continue;
    const site: Site = { file, line: Number(match[2]), column: Number(match[3]) };
    const dependency = dependencyOf(file);
    if (dependency === undefined) return site;
    fallback ??= { ...site, dependency };
  }
  return fallback;
}

/** The app's place that called into trestle, right now. */
export function callSite(): Site | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack;
  Error.stackTraceLimit = limit;
  return siteIn(stack);
}
