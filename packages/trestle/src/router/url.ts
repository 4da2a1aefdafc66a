// The two things the router needs from a request URL, without a full parse:
// the path (what layers match against) and, for absolute-form URLs
// (`GET http://host/path`), the scheme and host in front of it.

/** The path of `url`: up to the query string or fragment. */
export function getPathname(url: string): string {
  const end = pathEnd(url);
  if (url.charCodeAt(0) === 47 /* / */) return end === url.length ? url : url.slice(0, end);
  const host = getProtohost(url);
  const path = url.slice(host.length, end);
  return path.length === 0 ? '/' : path;
}

/**
 * The query string of `url`: after the first `?`, up to a fragment (`#`), as
 * url.parse reads it; null when there is no `?` before a fragment (a bare
 * `?` gives ''). The `query parser` gets it as it is: Express passes null.
 */
export function getSearch(url: string): string | null {
  const query = url.indexOf('?');
  if (query === -1) return null;
  const hash = url.indexOf('#');
  if (hash === -1) return url.slice(query + 1);
  return hash < query ? null : url.slice(query + 1, hash);
}

/** Where the path of `url` ends: at its query string or fragment. */
function pathEnd(url: string): number {
  // A charCodeAt loop costs 3-5 ns a character, a native search ~10 ns a
  // call: the loop for short URLs (`/`), two searches for the rest.
  if (url.length <= 8) {
    for (let i = 0; i < url.length; i++) {
      const c = url.charCodeAt(i);
      if (c === 63 /* ? */ || c === 35 /* # */) return i;
    }
    return url.length;
  }
  const query = url.indexOf('?');
  const hash = url.indexOf('#');
  if (hash === -1) return query === -1 ? url.length : query;
  return query === -1 || hash < query ? hash : query;
}

/** `http://host` for an absolute-form URL, else the empty string. */
export function getProtohost(url: string): string {
  if (url.length === 0 || url.charCodeAt(0) === 47) return '';
  const q = url.indexOf('?');
  const head = q === -1 ? url : url.slice(0, q);
  const scheme = head.indexOf('://');
  if (scheme === -1) return '';
  const slash = url.indexOf('/', scheme + 3);
  return slash === -1 ? head : url.slice(0, slash);
}
