// Shared by the response and views tests: an error handler that reports the
// error it caught as JSON, so a test can assert on what next(err) received.
import { join } from 'node:path';
import trestle, { type Application, type ErrorRequestHandler, type RequestHandler } from 'trestle';

export const FIXTURES = join(__dirname, 'fixtures', 'response');
export const VIEWS = join(__dirname, 'fixtures', 'views');

/** What `reportErrors` answers: the caught error's name, message, code and status. */
export interface ReportedError {
  name: string;
  message: string;
  code?: string;
  status?: number;
  types?: string[];
}

/** Answers any error with 520 and its description as JSON. */
export const reportErrors: ErrorRequestHandler = (err, _req, res, _next) => {
  const e = err as Error & { code?: string; status?: number; types?: string[] };
  res.status(520).json({ name: e.name, message: e.message, code: e.code, status: e.status, types: e.types });
};

/** An app with one GET (and HEAD) route at `/` and the error reporter after it. */
export function appWith(handler: RequestHandler, setup?: (app: Application) => void): Application {
  const app = trestle();
  setup?.(app);
  app.get('/', handler);
  app.use(reportErrors);
  return app;
}
