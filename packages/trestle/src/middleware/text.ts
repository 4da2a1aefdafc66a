// `trestle.text()`: the body as a string in `req.body`, decoded per its charset.
import type { TextOptions } from '../types';
import { type CommonOptions, commonConfig, createParser, requestCharset } from './body';
import { optionsObject } from './options';

function keepString(body: string): string {
  return body;
}

export function text(options?: TextOptions | null): ReturnType<typeof createParser> {
  const opts = optionsObject(options);
  const common = commonConfig(opts as CommonOptions, 'text/plain');
  const defaultCharset = (opts.defaultCharset || 'utf-8').toLowerCase();
  return createParser('textParser', {
    ...common,
    charsetOf: (req) => requestCharset(req) ?? defaultCharset,
    parse: keepString,
  });
}
