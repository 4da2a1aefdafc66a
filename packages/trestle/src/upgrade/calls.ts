// The call forms Express 5 removed or changed, checked where trestle/v4
// implements them: each call in one of those forms is a finding at the
// app's line that made it.
import { checkCalls, checkReads, show } from './wrap';
import { record } from './store';

type Args = unknown[];

/** `res.send(a, b)`, `res.json(a, b)`: which argument Express 4 took as the status. */
function statusOf(name: string, [a, b]: Args): { status: unknown; value: unknown } {
  const valueFirst = name === 'send' ? typeof a !== 'number' && typeof b === 'number' : typeof b === 'number';
  return valueFirst ? { status: b, value: a } : { status: a, value: b };
}

function checkSend(_res: unknown, args: Args): void {
  if (args.length === 2) {
    const { status } = statusOf('send', args);
    record('send-status-body', `res.send(${args.map(show).join(', ')})`, { express5: `res.status(${show(status)}).send(body)` });
  } else if (typeof args[0] === 'number') {
    record('send-status', `res.send(${args[0]})`, { express5: `res.sendStatus(${args[0]})` });
  }
}

function checkJson(name: 'json' | 'jsonp') {
  return (_res: unknown, args: Args): void => {
    if (args.length !== 2) return;
    const { status } = statusOf(name, args);
    record(`${name}-status`, `res.${name}(${args.map(show).join(', ')})`, { express5: `res.status(${show(status)}).${name}(obj)` });
  };
}

function checkRedirect(_res: unknown, args: Args): void {
  const urlFirst = args.length === 2 && typeof args[0] !== 'number';
  if (urlFirst) record('redirect-url-status', `res.redirect(${show(args[0])}, ${show(args[1])})`, { express5: `res.redirect(${show(args[1])}, ${show(args[0])})` });
  const url = args.length === 2 && !urlFirst ? args[1] : args[0];
  if (url === 'back') record('redirect-back', `res.redirect(${args.map(show).join(', ')})`);
}

function checkStatus(_res: unknown, [code]: Args): void {
  const n = code as number;
  if (!Number.isInteger(code) || n < 100 || n > 999) record('status-invalid', `res.status(${show(code)})`);
}

function checkClearCookie(_res: unknown, [name, options]: Args): void {
  const o = options as { maxAge?: unknown; expires?: unknown } | null | undefined;
  const given = ['maxAge', 'expires'].filter((key) => o?.[key as 'maxAge'] !== undefined);
  if (given.length !== 0) record('clear-cookie-expiry', `res.clearCookie(${show(name)}, { ${given.join(', ')} })`);
}

/** `res.*` forms. */
export function checkResponse(response: object): void {
  checkCalls(response, 'send', checkSend);
  checkCalls(response, 'json', checkJson('json'));
  checkCalls(response, 'jsonp', checkJson('jsonp'));
  checkCalls(response, 'redirect', checkRedirect);
  checkCalls(response, 'location', (_res, [url]) => url === 'back' && record('location-back', "res.location('back')"));
  checkCalls(response, 'sendfile', (_res, [path]) => record('sendfile', `res.sendfile(${show(path)})`));
  checkCalls(response, 'clearCookie', checkClearCookie);
  checkCalls(response, 'status', checkStatus);
  checkCalls(response, 'vary', (_res, [field]) => (!field || (Array.isArray(field) && field.length === 0)) && record('vary-empty', 'res.vary()'));
}

/** `req.*` forms. */
export function checkRequest(request: object): void {
  checkCalls(request, 'param', (_req, args) => record('req-param', `req.param(${args.map(show).join(', ')})`));
  for (const name of ['Charset', 'Encoding', 'Language']) {
    checkCalls(request, `accepts${name}`, () => record('accepts-singular', `req.accepts${name}()`, { express5: `req.accepts${name}s()` }));
  }
}

/** `app.*` and `router.*` forms (the routers' prototype is given apart). */
export function checkApplication(application: object, routerProto: object): void {
  checkCalls(application, 'del', (_app, [path]) => record('app-del', `app.del(${show(path)})`, { express5: `app.delete(${show(path)}, ...)` }));
  checkCalls(application, 'param', (_app, [name]) => typeof name === 'function' && record('param-fn', 'app.param(fn)'));
  checkCalls(routerProto, 'param', (_router, [name]) => typeof name === 'function' && record('param-fn', 'router.param(fn)'));
  // Express 4 throws there: the read is noted before.
  checkReads(application, 'router', () => record('app-router', 'app.router'), 'before');
}

/** `express.static.mime`. */
export function checkFactory(factory: { static: object }): void {
  checkReads(factory.static, 'mime', () => record('static-mime', 'express.static.mime'));
}
