// Express 4's body parsers (body-parser 1.x) leave `req.body` as `{}` when
// they read nothing; v5's leave it `undefined`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ParserFactory } from '../profile';

type Middleware = (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (err?: unknown) => void) => void;

/** A body parser factory whose parsers leave `req.body` at least `{}`. */
export function withEmptyBody<F extends ParserFactory>(make: F): F {
  return ((options?: never) => {
    const parse = make(options) as Middleware;
    return function bodyParser(req, res, next) {
      req.body ??= {};
      parse(req, res, next);
    } as Middleware;
  }) as F;
}
