// Named formats: the predefined ones and those added with logger.format().
import { compile } from './compile.js';
import { deprecate } from './deprecate.js';
import { jsonFormat } from './json-format.js';
import { headersSent } from './tokens.js';
import type { FormatFn } from './types.js';

const registry = new Map<string, string | FormatFn>();

/** Names a format (a format string or a function), replacing one of the same name. */
export function defineFormat(name: string, format: string | FormatFn): void {
  if (typeof name !== 'string') {
    throw new TypeError('logline.format: argument name must be a string');
  }
  if (typeof format !== 'string' && typeof format !== 'function') {
    throw new TypeError('logline.format: argument format must be a string or a function');
  }
  registry.set(name, format);
}

/** The format named `name`, as it was defined (a format string or a function). */
export function formatByName(name: string): string | FormatFn | undefined {
  return registry.get(name);
}

/** The names of the defined formats. */
export function formatNames(): string[] {
  return [...registry.keys()];
}

/**
 * The format function for a name: a named format, else the name itself
 * read as a format string (as morgan does with an unknown name).
 */
export function formatNamed(name: string): FormatFn {
  if (name === 'default') {
    deprecate('LOGLINE_DEP_DEFAULT_FORMAT', 'logline: the "default" format is deprecated: use the "combined" format');
  }
  const format = registry.get(name) ?? name;
  return typeof format === 'function' ? format : compile(format);
}

// The status colour of the dev format, by status class: ANSI SGR codes.
function devColor(status: number | undefined): number {
  if (status === undefined) return 0;
  if (status >= 500) return 31; // red
  if (status >= 400) return 33; // yellow
  if (status >= 300) return 36; // cyan
  if (status >= 200) return 32; // green
  return 0; // informational: no colour
}

// One compiled line per colour, so a dev line costs no more than any other.
const devLines = new Map<number, FormatFn>(
  [0, 31, 33, 36, 32].map((color) => [
    color,
    compile(`\x1b[0m:method :url \x1b[${color}m:status\x1b[0m :response-time ms - :res[content-length]\x1b[0m`),
  ]),
);

// NO_COLOR (https://no-color.org), set to anything but '' when logline loads:
// the dev line without colour codes, as morgan 1.12 writes it then.
const plainDev = process.env.NO_COLOR ? compile(':method :url :status :response-time ms - :res[content-length]') : undefined;

const devFormat: FormatFn = (tokens, req, res) => {
  if (plainDev !== undefined) return plainDev(tokens, req, res);
  const line = devLines.get(devColor(headersSent(res) ? res.statusCode : undefined)) as FormatFn;
  return line(tokens, req, res);
};

const COMMON = ':remote-addr - :remote-user [:date[clf]] ":method :url HTTP/:http-version" :status :res[content-length]';

defineFormat('combined', COMMON + ' ":referrer" ":user-agent"');
defineFormat('common', COMMON);
defineFormat(
  'default',
  ':remote-addr - :remote-user [:date] ":method :url HTTP/:http-version" :status :res[content-length] ":referrer" ":user-agent"',
);
defineFormat('short', ':remote-addr :remote-user :method :url HTTP/:http-version :status :res[content-length] - :response-time ms');
defineFormat('tiny', ':method :url :status :res[content-length] - :response-time ms');
defineFormat('dev', devFormat);
defineFormat('json', jsonFormat);
