// The findings the upgrade report can make: for each, the Express 4 form,
// what Express 5 does instead, the form to write, and the anchor of its
// entry in docs/migrating-v4.md (`#upgrade-<kind>`, one per kind; a test
// holds the page to this table).

export interface KindInfo {
  /** The Express 4 form, as the report names it. */
  form: string;
  /** What Express 5 does with it. */
  change: string;
  /** What to write for Express 5. */
  express5: string;
}

export const KINDS = {
  'route-path': {
    form: 'route path',
    change: 'Express 5 (path-to-regexp 8) rejects the path, or matches other URLs with it',
    express5: 'the verified Express 5 path given with the finding',
  },
  'mount-path': {
    form: 'use() mount path',
    change: 'Express 5 (path-to-regexp 8) rejects the path, or matches other URLs with it',
    express5: 'the verified Express 5 path given with the finding',
  },
  'app-del': {
    form: 'app.del()',
    change: 'removed in Express 5',
    express5: 'app.delete(path, ...handlers)',
  },
  'param-fn': {
    form: 'app.param(fn) / router.param(fn)',
    change: 'Express 5 throws: a param trigger needs a name',
    express5: "app.param('name', (req, res, next, value) => ...) for each parameter",
  },
  'req-param': {
    form: 'req.param(name)',
    change: 'removed in Express 5',
    express5: 'req.params.name, req.body.name or req.query.name, whichever the value comes from',
  },
  'accepts-singular': {
    form: 'req.acceptsCharset() / acceptsEncoding() / acceptsLanguage()',
    change: 'removed in Express 5',
    express5: 'req.acceptsCharsets(), req.acceptsEncodings(), req.acceptsLanguages()',
  },
  'send-status-body': {
    form: 'res.send(status, body)',
    change: 'Express 5 sends the status number as the body (or ignores the second argument)',
    express5: 'res.status(status).send(body)',
  },
  'send-status': {
    form: 'res.send(status)',
    change: 'Express 5 sends the number as a JSON body with status 200',
    express5: 'res.sendStatus(status)',
  },
  'json-status': {
    form: 'res.json(obj, status) / res.json(status, obj)',
    change: 'Express 5 takes one argument: the status is sent as the body or ignored',
    express5: 'res.status(status).json(obj)',
  },
  'jsonp-status': {
    form: 'res.jsonp(obj, status) / res.jsonp(status, obj)',
    change: 'Express 5 takes one argument: the status is sent as the body or ignored',
    express5: 'res.status(status).jsonp(obj)',
  },
  'redirect-url-status': {
    form: 'res.redirect(url, status)',
    change: 'Express 5 takes the status first',
    express5: 'res.redirect(status, url)',
  },
  'redirect-back': {
    form: "res.redirect('back')",
    change: "Express 5 redirects to the relative URL 'back'",
    express5: "res.redirect(req.get('Referrer') || '/')",
  },
  'location-back': {
    form: "res.location('back')",
    change: "Express 5 sets Location to the relative URL 'back'",
    express5: "res.location(req.get('Referrer') || '/')",
  },
  sendfile: {
    form: 'res.sendfile()',
    change: 'removed in Express 5',
    express5: "res.sendFile(path, { root }) (an absolute path, or a root; dotfiles ignored by default)",
  },
  'static-mime': {
    form: 'express.static.mime',
    change: 'removed in Express 5 (serve-static 2 uses mime-types)',
    express5: "require('mime-types') (lookup, extension, contentType)",
  },
  'clear-cookie-expiry': {
    form: 'res.clearCookie(name, { maxAge / expires })',
    change: 'Express 5 ignores maxAge and expires: the cookie always expires at once',
    express5: 'res.clearCookie(name, options) without maxAge and expires',
  },
  'status-invalid': {
    form: 'res.status(code) with a code that is not an integer from 100 to 999',
    change: 'Express 5 throws (TypeError for a non-integer, RangeError out of range)',
    express5: 'res.status(integer) between 100 and 999',
  },
  'vary-empty': {
    form: 'res.vary() without a field',
    change: 'Express 5 throws a TypeError',
    express5: 'res.vary(field), or no call',
  },
  'urlencoded-extended': {
    form: 'express.urlencoded() without `extended`',
    change: 'the default changes from extended (qs: a[b]=1 is nested) to false (querystring: flat keys)',
    express5: 'express.urlencoded({ extended: true }) to keep nested bodies',
  },
  'query-assign': {
    form: 'req.query = value',
    change: 'req.query is a getter in Express 5: the assignment throws in strict code and is lost otherwise',
    express5: "keep the value elsewhere (res.locals), or Object.defineProperty(req, 'query', { value, writable: true })",
  },
  'query-member': {
    form: 'a member of req.query set, deleted or defined (req.query.x = v, delete req.query.x, Object.assign(req.query, ...))',
    change: 'req.query is a getter in Express 5 that parses the URL again on each read: the change is lost at the next read',
    express5: "keep the changed copy elsewhere (const query = { ...req.query }; or res.locals.query), or in an early middleware Object.defineProperty(req, 'query', { value: { ...req.query }, writable: true }) so later reads see the changes",
  },
  'query-parser': {
    form: 'req.query read with the default query parser',
    change: "Express 5's default parser is 'simple' (querystring): this query string reads differently than with v4's 'extended' (qs)",
    express5: "app.set('query parser', 'extended') to keep v4's parsing, or read the flat keys",
  },
  'query-prototype': {
    form: 'req.query.hasOwnProperty() (or another Object.prototype method) called on req.query',
    change: "Express 5's default parser gives req.query no prototype: the call throws a TypeError (a 500), with or without a query string",
    express5: 'Object.hasOwn(req.query, key) (Object.prototype.<method>.call(req.query, ...))',
  },
  'content-type-word': {
    form: "res.set('Content-Type', x) / res.type(x) / res.contentType(x) with x without a '/'",
    change: "Express 5 looks x up as a file extension (mime-types): an unknown word sets the type to false (res.send then sends its own), a known one another type than Express 4 sent",
    express5: "a full type ('text/plain'), or res.setHeader('Content-Type', x) to send x as written",
  },
  'file-content-type': {
    form: 'a file sent by express.static, res.sendFile or res.download, typed from its extension',
    change: 'Express 5 (send 1, mime-types) writes the charset in lower case (charset=utf-8, Express 4 wrote UTF-8), and some types differently (.js: text/javascript)',
    express5: 'nothing, unless a client or a test compares the header exactly: compare the type and charset without case, or set the type (setHeaders, the headers option)',
  },
  'body-empty': {
    form: 'req.body read where a body parser read no body',
    change: 'Express 5\'s body parsers leave req.body undefined there (Express 4 set {})',
    express5: 'req.body ?? {} (or req.body?.name)',
  },
  'host-port': {
    form: 'req.host with a port in Host',
    change: 'Express 5 returns the host with its port',
    express5: 'req.hostname',
  },
  'promise-rejected': {
    form: 'a handler whose returned promise rejects',
    change: 'Express 5 passes the rejection to the error handlers (Express 4 ignored it: no answer, an unhandled rejection)',
    express5: 'nothing to write; check that your error handler answers it (and drop express-async-errors or wrappers that did this)',
  },
  'app-router': {
    form: 'app.router',
    change: "Express 5 returns the app's router (Express 4 threw)",
    express5: 'app.router is the router; no change unless code relied on the throw',
  },
} satisfies Record<string, KindInfo>;

export type FindingKind = keyof typeof KINDS;

/** The docs page every finding links into. */
export const DOCS_PAGE = 'migrating-v4.md';

/** The anchor of `kind`'s entry on the docs page. */
export function anchorOf(kind: FindingKind): string {
  return `upgrade-${kind}`;
}
