// Routes both the comparison with Express and the legacy test serve: a
// regular expression, next('route') to a second route, a thrown error.
type Next = (err?: unknown) => void;
type Handler = (req: unknown, res: { send(body: string): void }, next: Next) => void;

export function addEdgeRoutes(app: { get(path: string | RegExp, ...fns: Handler[]): unknown }): void {
  app.get(/^\/re\/(\d+)$/, function numbered(_req, res) {
    res.send('re');
  });
  app.get('/skip', function skip(_req, _res, next) {
    next('route');
  });
  app.get('/skip', function skipped(_req, res) {
    res.send('second');
  });
  app.get('/boom', function boom() {
    throw new Error('boom');
  });
}
