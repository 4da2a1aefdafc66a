// Express 4's body parsers (body-parser 1.x) leave `req.body` as `{}` when
// they read nothing (v5's leave it `undefined`), mark what they read with
// `req._body`, and refuse a stream something else already read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { kBodyParser1, named } from '../../middleware/body';
import type { ParserFactory } from '../profile';

type Middleware = (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (err?: unknown) => void) => void;

/** A body parser factory whose parsers leave `req.body` at least `{}` and read as body-parser 1.x. */
export function withEmptyBody<F extends ParserFactory>(make: F): F {
  return ((options?: never) => {
    const given = options !== null && typeof options === 'object' ? (options as object) : {};
    const parse = make({ ...given, [kBodyParser1]: true } as never) as Middleware;
    return named(parse.name, function bodyParser(req, res, next) {
      req.body ??= {};
      parse(req, res, next);
    } as Middleware);
  }) as F;
}
