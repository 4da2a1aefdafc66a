// `bodyParser()` of the legacy generation: JSON, urlencoded (extended) and
// multipart in one middleware. After it runs, `req.body` is at least `{}` and
// `req.files` at least `{}`, as Express 3 apps expect; a body is still read
// only once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonOptions, UrlencodedOptions } from '../../types';
import { named } from '../../middleware/body';
import { json } from '../../middleware/json';
import { type MultipartOptions, multipart } from './multipart';
import { createUrlencoded } from '../../middleware/urlencoded';

export type LegacyBodyParserOptions = JsonOptions & UrlencodedOptions & MultipartOptions;

type Req = IncomingMessage & { body?: unknown; files?: unknown };
type Next = (err?: unknown) => void;
type Middleware = (req: Req, res: ServerResponse, next: Next) => void;

const urlencoded = createUrlencoded({ extended: true });

export function bodyParser(options: LegacyBodyParserOptions = {}): Middleware {
  const parsers = [json(options), urlencoded({ extended: true, ...options }), multipart(options) as Middleware];
  // Named as Express 3's (connect's) was.
  return named('bodyParser', function bodyParserMiddleware(req: Req, res: ServerResponse, next: Next): void {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err) return next(err);
      const parser = parsers[i++];
      if (parser === undefined) {
        req.body ??= {};
        return next();
      }
      parser(req, res, step);
    };
    step();
  });
}
