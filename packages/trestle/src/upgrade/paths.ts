// Route and mount paths, checked when the app registers them: each path
// Express 5 rejects or matches differently is a finding at the line that
// registered it, with the verified Express 5 path.
import { useArguments } from '../router/router';
import { methodsOf, type Memo, translated } from './routes';
import { callSite } from './site';
import { type PathDetail, record } from './store';
import type { MatchOptions } from './verify';

interface RouterLike {
  strict?: boolean;
  caseSensitive?: boolean;
}
type RouteLike = Parameters<typeof methodsOf>[0];

// Apps repeat paths (one app per test), and a translation samples many URLs.
const memo: Memo = new Map();

export function detailOf(path: string, options: MatchOptions, route: RouteLike | undefined): PathDetail | undefined {
  const t = translated(path, options, memo);
  if (t.change === 'none' || t.suggestion === undefined) return undefined;
  const s = t.suggestion;
  const detail: PathDetail = {
    v4: path,
    change: t.change,
    suggestion: s.code,
    equivalent: s.verification.equivalent,
    renames: s.renames.map((r) => ({ v4: String(r.v4), v5: String(r.v5), joined: r.join === true })),
    notes: s.notes,
    methods: [],
  };
  if (t.error !== undefined) detail.error = t.error;
  // Methods are added to a route after route() returns: read them when the report is written.
  if (route !== undefined) Object.defineProperty(detail, 'methods', { enumerable: true, get: () => methodsOf(route) });
  return detail;
}

function checkPaths(kind: 'route-path' | 'mount-path', path: unknown, options: MatchOptions, route?: RouteLike): void {
  const list = Array.isArray(path) ? (path.flat(Infinity) as unknown[]) : [path];
  let site;
  for (const p of list) {
    if (typeof p !== 'string') continue;
    let detail: PathDetail | undefined;
    try {
      detail = detailOf(p, options, route);
    } catch {
      continue; // a path Express 4 itself cannot read threw at registration already
    }
    if (detail === undefined) continue;
    site ??= callSite('app');
    record(kind, `'${p}'`, { express5: detail.suggestion, path: detail }, site);
  }
}

/** `router.route(path)` (under app.get, app.route...) and `router.use(path, ...)`, on the routers' prototype. */
export function checkRegistrations(routerProto: object): void {
  const proto = routerProto as Record<string, (this: RouterLike, ...args: unknown[]) => unknown>;
  const route = proto.route!;
  const use = proto.use!;
  Object.assign(proto, {
    route(this: RouterLike, path: unknown) {
      const r = route.call(this, path) as RouteLike;
      checkPaths('route-path', path, { end: true, strict: Boolean(this.strict), sensitive: Boolean(this.caseSensitive) }, r);
      return r;
    },
    use(this: RouterLike, ...args: unknown[]) {
      const out = use.apply(this, args);
      checkPaths('mount-path', useArguments(args).path, { end: false, strict: false, sensitive: Boolean(this.caseSensitive) });
      return out;
    },
  });
}
