// The contract of every path compiler with the layer index: whenever a
// compiled path matches a request path, that path starts with the compiled
// path's `prefix` (lower-cased when matching ignores case). The index skips
// every layer whose prefix the path lacks, so a prefix that claims too much
// would silently hide a route. Checked with fast-check over generated route
// patterns, in each generation's syntax, and paths made to match them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { CompiledPath, PathCompiler, PathOptions } from '../../src/router/path/compiled';
import { makeV4Compiler } from '../../src/router/path/v4';
import { compileV5Path } from '../../src/router/path/v5';

const RUNS = 400;

/** A piece of a pattern and how to write a request path it matches. */
interface Piece {
  pattern: string;
  sample: fc.Arbitrary<string>;
}

const name = fc.stringMatching(/^[a-z]{1,3}$/);
const value = fc.stringMatching(/^[a-zA-Z0-9_~-]{1,4}$/);
const literal = (chars: RegExp): fc.Arbitrary<Piece> => fc.stringMatching(chars).map((text) => ({ pattern: text, sample: fc.constant(text) }));
const segments = fc.array(value, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));

/** v5: literals, `:name`, `*name`, and optional `{...}` groups. */
const v5Piece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 3, arbitrary: literal(/^[a-zA-Z0-9._~-]{1,4}$/) },
  { weight: 2, arbitrary: name.map((n) => ({ pattern: `:${n}`, sample: value })) },
  { weight: 1, arbitrary: name.map((n) => ({ pattern: `*${n}`, sample: segments })) },
  {
    weight: 1,
    arbitrary: fc.tuple(name, fc.boolean()).map(([n, wild]) => ({
      pattern: `{/${wild ? '*' : ':'}${n}}`,
      sample: fc.option(wild ? segments : value, { nil: undefined }).map((v) => (v === undefined ? '' : `/${v}`)),
    })),
  },
);

/** v4 and legacy: literals, `:name`, `:name?`, `:name(\d+)`, `*`. */
const v4Piece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 3, arbitrary: literal(/^[a-zA-Z0-9_-]{1,4}$/) },
  { weight: 2, arbitrary: name.map((n) => ({ pattern: `:${n}`, sample: value })) },
  { weight: 1, arbitrary: name.map((n) => ({ pattern: `:${n}(\\d+)`, sample: fc.stringMatching(/^\d{1,3}$/) })) },
  { weight: 1, arbitrary: fc.constant({ pattern: '*', sample: fc.oneof(segments, fc.constant('')) }) },
);

/** Pieces joined by `/` (or glued with `.` / `-`), and request paths built from the same pieces. */
function routes(piece: fc.Arbitrary<Piece>, optionalSuffix: string): fc.Arbitrary<{ pattern: string; paths: fc.Arbitrary<string> }> {
  const joint = fc.constantFrom('/', '/', '/', '.', '-');
  return fc.array(fc.tuple(joint, piece, fc.boolean()), { minLength: 1, maxLength: 4 }).map((pieces) => {
    const list = pieces.map(([j, p, optional], i): [string, Piece, boolean] => [i === 0 ? '/' : j, p, optional]);
    // A v4 `:name?` may be left out of the path, with the separator before it.
    const optional = ([, p, opt]: [string, Piece, boolean]) => opt && optionalSuffix !== '' && p.pattern.startsWith(':') && !p.pattern.includes('(');
    const pattern = list.map((item) => `${item[0]}${item[1].pattern}${optional(item) ? optionalSuffix : ''}`).join('');
    const pieceSamples = list.map((item) => {
      const full = item[1].sample.map((s) => `${item[0]}${s}`);
      return optional(item) ? fc.oneof(full, fc.constant('')) : full;
    });
    const paths = fc.tuple(...pieceSamples).map((parts) => parts.join(''));
    return { pattern, paths };
  });
}

/** A path as a client might send it: other case, a trailing slash, more segments. */
function variants(path: string): fc.Arbitrary<string> {
  return fc.tuple(fc.boolean(), fc.constantFrom('', '/', '/x', '.html', 'y')).map(([upper, tail]) => `${upper ? path.toUpperCase() : path}${tail}`);
}

const options = fc.record<PathOptions>({ end: fc.boolean(), strict: fc.boolean(), sensitive: fc.boolean() });

function check(compile: PathCompiler, piece: fc.Arbitrary<Piece>, optionalSuffix: string): void {
  let matched = 0;
  let withPrefix = 0;
  const scenario = fc.tuple(routes(piece, optionalSuffix), options).chain(([route, opts]) =>
    fc.record({
      pattern: fc.constant(route.pattern),
      opts: fc.constant(opts),
      paths: fc.array(route.paths.chain(variants), { minLength: 1, maxLength: 6 }),
      noise: fc.array(fc.stringMatching(/^\/[a-zA-Z0-9/._-]{0,12}$/), { maxLength: 3 }),
    }),
  );
  fc.assert(
    fc.property(scenario, ({ pattern, opts, paths, noise }) => {
      let compiled: CompiledPath;
      try {
        compiled = compile(pattern, opts);
      } catch {
        return; // a pattern the syntax rejects has no matches to check
      }
      for (const path of [...paths, ...noise]) {
        if (compiled.match(path) === null) continue;
        matched++;
        if (compiled.prefix !== '') withPrefix++;
        const seen = opts.sensitive ? path : path.toLowerCase();
        assert.ok(seen.startsWith(compiled.prefix), `${JSON.stringify(pattern)} ${JSON.stringify(opts)} matched ${JSON.stringify(path)}, which does not start with its prefix ${JSON.stringify(compiled.prefix)}`);
      }
    }),
    { numRuns: RUNS },
  );
  // The property says something only if matches happened, with prefixes to check.
  assert.ok(matched >= RUNS / 2, `only ${matched} matches in ${RUNS} runs`);
  assert.ok(withPrefix >= RUNS / 4, `only ${withPrefix} matches had a prefix`);
}

describe('path compilers: a match starts with the prefix', () => {
  test('v5 (path-to-regexp 8 syntax)', () => check(compileV5Path, v5Piece, ''));
  test('v4 (path-to-regexp 0.1 syntax, "/" continues a mount path)', () => check(makeV4Compiler('/'), v4Piece, '?'));
  test('legacy (v4 syntax, "/" and "." continue a mount path)', () => check(makeV4Compiler('/.'), v4Piece, '?'));
});
