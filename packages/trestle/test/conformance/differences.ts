// Where a generation answers differently from v5, and why. The expected
// answers themselves are in the cases (`v4: [...]`, `legacy: [...]`); the
// suite fails when a case and these lists disagree.
import { EXPRESS3_NO_304 } from '../express-on-this-node';
import type { Differences, Generation } from './harness';

/** What Express 4 and Express 3 share against Express 5. */
const beforeV5: Differences = {
  'an unhandled OPTIONS lists the methods of the matching routes': 'Express 4 joins the methods with "," and sends them through res.send (HTML, with an ETag)',
  'an optional parameter written :name?': 'path-to-regexp 0.1 syntax; path-to-regexp 8 (v5) rejects "?"',
  'an optional parameter written {/:name}': 'braces are v5 syntax; in 0.1 they are regular-expression text that matches nothing here',
  'a parameter with its own pattern :id(\\d+)': 'inline patterns are 0.1 syntax; v5 rejects "("',
  'an unnamed wildcard *': '0.1 reads * as an unnamed capture (req.params[0]); v5 requires a name',
  'a named wildcard *name': 'v5 syntax; in 0.1 "*path" is an unnamed capture followed by the text "path"',
  'an optional wildcard {*name}': 'v5 syntax; 0.1 reads the braces as regular-expression text',
  'send(number)': 'res.send(status) sends the status and its message (deprecated in v4); v5 sends the number as JSON',
  'send(status, body), the two-argument form': 'res.send(status, body) sets the status (deprecated in v4); v5 sends the first argument',
  'json(status, object), the two-argument form': 'res.json(status, obj) sets the status (deprecated in v4); v5 sends the first argument',
  'json(number, number) and jsonp(number, number)': 'a number second is the status (res.json(obj, status), deprecated in v4): 201 with the body 200; v5 sends the first argument',
  'attachment with a file name sets the disposition and the type': 'content-disposition 0.5 keeps ISO-8859-1 names in filename="" without filename*',
  "location('back') uses the Referrer": '"back" means the Referrer, else "/" (deprecated in v4); v5 sends it as written',
  'redirect is a 302 with Location and an HTML body for browsers': 'the HTML page is a single <p> before v5',
  'redirect encodes the URL and escapes it in the HTML body': 'the HTML page is a single <p> before v5',
  'redirect(url, status), the old order': 'res.redirect(url, status) is accepted (deprecated in v4); v5 takes the number for a URL and fails',
  'app.cache and app.engines, the view caches': 'Express 4 and 3 made them ordinary objects; Express 5 gives them no prototype',
  'req.query by default': "the default query parser is 'extended' (qs: nested objects with a prototype); v5's is 'simple' (querystring, no prototype)",
  'req.query with query parser off': 'query parser false compiles to a parser answering {}; v5 compiles it to none, and its getter answers an object with no prototype',
  'req.query with no query parser fn': "without a parser Express 4's query layer parsed with qs; v5's getter answers an object with no prototype",
  "redirect('back')": '"back" means the Referrer (deprecated in v4); v5 redirects to "back"',
};

const v4: Differences = {
  ...beforeV5,
  'a regexp mount path must end where a segment ends': "Express 4's router also lets a middleware match end before a '.' (v5: only before '/')",
  "the route '/' also serves '//'": "path-to-regexp 0.1 makes the trailing '/' of \"/\" optional (it serves \"/\" alone); Express 5 keeps \"/\" and allows one more '/'",
  "'//' among enough routes for the layer index, and after a mount path": "path-to-regexp 0.1: \"/\" serves \"/\" alone, and a mount path \"/m\" also takes a '/' that only '/' or the end follows (\"/m//x\" reaches the sub-app as \"/x\")",
  "an array of paths holding '/' also serves '//'": "path-to-regexp 0.1: \"/\" serves \"/\" alone",
};

const md5ETag = 'Express 3 tagged with MD5 (etag 1.7): same freshness rules, other tag text';

const legacy: Differences = {
  ...beforeV5,
  'an unhandled OPTIONS lists the methods of the matching routes': 'Express 3 lists the verbs of the route table in the runtime\'s order of methods, HEAD counting the GET routes, as Express 4 formats them',
  'redirect is a 302 with Location and an HTML body for browsers': 'Express 3 linked the URL in its one-paragraph page, charset "UTF-8"',
  'a mount path followed by a dot': 'Express 3 mounted by prefix: /apple also serves /apple.html, with req.url "/.html"',
  'a regexp mount path must end where a segment ends': "as Express 4, a regular expression's match may end before a '.' (Express 3 mounted by prefix, '.' included)",
  'a relative redirect': 'Express 3 resolved a bare relative URL against the app\'s mount path ("" at the top: "c" is "/c")',
  'set Content-Type gains a charset': 'Express 3 res.set() left Content-Type as given',
  'set Content-Type with an array is an error': 'Express 3 res.set() took an array for Content-Type (the client keeps the first)',
  'type() maps an extension or a name to a MIME type': 'Express 3 res.type() added no charset (send() adds one to strings)',
  'contentType() is type()': 'Express 3 res.type() added no charset',
  'send(Buffer): octet-stream unless a type is set': 'Express 3 res.type() added no charset, and send() adds one to strings only; its ETags were MD5',
  'redirect body as text': 'Express 3 wrote the charset "UTF-8"',
  'relative redirects in a mounted app': 'Express 3 resolved "x" against the mount path, "./x" and "../x" against the request path',
  'an unknown path is a 404 naming method and path': 'Express 3 (Connect) answered the message alone, with a newline, without Content-Security-Policy',
  'a trailing slash is ignored by default': 'Express 3 read a route "/u/" as "/u/" and an optional slash: "/u" does not match, "/u//" does',
  'location encodes the URL': 'Express 3 res.location() set the URL as given, without percent-encoding',
  'redirect encodes the URL and escapes it in the HTML body': 'Express 3 set the Location as given (not percent-encoded) and linked it, escaped, in its one-paragraph page',
  'send(string): HTML in UTF-8 with its byte length and a weak ETag': md5ETag,
  'send(object) and send(array) are JSON': md5ETag,
  'send of an empty string': md5ETag,
  'json(object), json(null), json(string)': md5ETag,
  'If-None-Match with the ETag is a 304 without body or entity headers': md5ETag,
  'If-None-Match with another ETag is a 200': md5ETag,
  'Cache-Control: no-cache makes a request stale': md5ETag,
  'etag strong': md5ETag,
  'HEAD sends the headers of send() and no body': md5ETag,
  'HEAD of json()': md5ETag,
  'HEAD with a matching ETag is a 304': md5ETag,
};

export const DIFFERENCES: Record<Generation, Differences> = { v5: {}, v4, legacy };

/**
 * Cases where trestle deliberately answers differently from the real Express
 * of its generation (the spec says so, the README lists it, or legacy keeps a
 * later generation's API). On that Express each case, as written, must fail:
 * the suite asserts it.
 */
const everywhere: Differences = {
  'X-Powered-By names the framework unless disabled': 'README: X-Powered-By says Trestle',
};

const laterApi = 'legacy keeps the API of later generations (Express 3 had none of it)';
const baseUrl = 'spec: req.baseUrl for every generation (Express 3 had none)';
const regexpUse = 'spec: a mount path may be a regular expression (Express 3 app.use took the RegExp for the middleware and dropped the function: it never ran)';
const queryParser = "docs/migrating-legacy.md: the query parser setting is read as in v4 (Express 3 had none and always parsed with qs)";
const routers = 'spec: Router() with use(), params and mergeParams for every generation (Express 3 routers had none)';

export const TRESTLE_ONLY: Record<Generation, Differences> = {
  v5: { ...everywhere },
  v4: { ...everywhere },
  legacy: {
    ...everywhere,
    "next('router') leaves the router": 'spec, routing rule 5, for every generation (Express 3 took "router" for an error)',
    'json escape setting escapes HTML characters': laterApi,
    'app.route chains methods on one path': laterApi,
    'sendStatus sends the status text': laterApi,
    'append adds values; set replaces them': laterApi,
    'middleware without a path sees every request, url untouched': baseUrl,
    'a mount path is stripped from req.url for its middleware': baseUrl,
    'a mount path with a trailing slash': baseUrl,
    'a sub-app mounted on a path sees the rest of the path': 'spec: app.mountpath and req.baseUrl for every generation',
    'a mount path with a parameter': 'spec: named parameters in mount paths (Express 3 mounted by plain prefix)',
    'an array of mount paths': 'spec: a mount path may be an array (Express 3 failed with a 500)',
    'a regexp mount path': 'spec: a mount path may be a regular expression',
    'a regexp mount path matches only at the start of the path': regexpUse,
    'a regexp mount path must end where a segment ends': regexpUse,
    'a regexp mount path among enough routes for the layer index': regexpUse,
    'router.use with a regexp matches only at the start of the rest of the path': routers,
    'nested routers build req.baseUrl': routers,
    'router middleware runs only for paths under its mount': routers,
    'param triggers are local to their router': routers,
    'a router keeps its own params by default': routers,
    'mergeParams keeps the parent params, the child winning a shared name': routers,
    'mergeParams with a regexp mount path': routers,
    'a regexp route captures by index': 'spec: legacy req.params is an object (Express 3 made it an array)',
    'a regexp route names its named groups': 'spec: legacy req.params is an object (Express 3 made it an array)',
    'status() with an invalid code fails the request': 'Express 3 res.status() did not check the code either (nor does trestle/legacy), but node then threw from its final handler and the process died; trestle/legacy answers 500',
    "req.query with query parser 'simple'": queryParser,
    'req.query with query parser off': queryParser,
    'app.param runs once per request for its parameter': 'spec: a trigger runs once per request even when several routes match (Express 3 ran it per route)',
  },
};

/**
 * Cases where trestle still answers differently from its Express and no rule
 * says it should: gaps to close. The committed expectations are trestle's
 * present answers; on that Express each case must fail (the suite asserts it),
 * so a closed gap is noticed.
 */
export const KNOWN_GAPS: Record<Generation, Differences> = {
  v5: {},
  v4: {},
  legacy: {},
};

/** The conditional-GET cases, which Express 3 cannot answer on a Node without `res._headers`. */
const freshness = [
  'If-None-Match with the ETag is a 304 without body or entity headers',
  'If-Modified-Since at or after Last-Modified is a 304',
  'an ETag set by the handler is kept',
  'HEAD with a matching ETag is a 304',
];

/** The cases `names`, each with `reason`; none where there is no reason (the running Node is fine). */
function brokenHere(reason: string | undefined, names: string[]): Differences {
  return reason === undefined ? {} : Object.fromEntries(names.map((name) => [name, reason]));
}

/**
 * Cases the real Express itself cannot answer on the running Node (trestle
 * does): on that Express each must fail, as a listed deviation does.
 */
export const EXPRESS_BROKEN_HERE: Record<Generation, Differences> = {
  v5: {},
  v4: {},
  legacy: brokenHere(EXPRESS3_NO_304, freshness),
};

/**
 * Deviations whose real Express throws out of its final handler, which ends
 * the process: the suite runs them in a child process of their own and
 * asserts that it dies.
 */
export const EXPRESS_DIES: Record<Generation, readonly string[]> = {
  v5: [],
  v4: [],
  legacy: ['status() with an invalid code fails the request'],
};
