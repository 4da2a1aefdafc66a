// Sample request paths drawn from a path's regular expression, then bent
// into near misses. The verifier runs every sample through both generations
// and lets their answers decide, so the sampler need not be exact: a sample
// that matches neither is simply a sample both must refuse.

/** The pieces of a regular expression the sampler understands. */
type Node =
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'chars'; pool: string[] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

const EMPTY: Node = { kind: 'seq', items: [] };

/** What "any character" stands for: letters in both cases, digits, dots, encoded bytes (a '/' and a '.' among them). */
const ANY = ['a', 'Q', '7', '.', '-', '_', '~', '%20', '%2F', '%2e', '%E2%82%AC', '/', 'x.y'];
const DIGITS = ['0', '4', '9'];
const WORD = ['a', 'Z', '_', '5'];
const NON_WORD = ['-', '.', '/', '%20'];

/** A deterministic random source (mulberry32), so a verdict never depends on the run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    return this.alternation();
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      items.push(this.quantified(this.atom()));
    }
    return { kind: 'seq', items };
  }

  private atom(): Node {
    const c = this.src[this.i++]!;
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '\\') return this.escape(this.src[this.i++] ?? '\\');
    if (c === '.') return { kind: 'chars', pool: ANY };
    if (c === '^' || c === '$') return EMPTY;
    return { kind: 'chars', pool: [c] };
  }

  private group(): Node {
    let lookaround = false;
    if (this.src[this.i] === '?') {
      const head = this.src.slice(this.i, this.i + 3);
      lookaround = head.startsWith('?=') || head.startsWith('?!') || head === '?<=' || head === '?<!';
      if (head.startsWith('?<') && !lookaround) this.i = this.src.indexOf('>', this.i) + 1;
      else this.i += lookaround ? (head[1] === '<' ? 3 : 2) : 2;
    }
    const inner = this.alternation();
    this.i++; // ')'
    // A lookaround consumes nothing; the real matchers judge what follows.
    return lookaround ? EMPTY : inner;
  }

  private charClass(): Node {
    const negated = this.src[this.i] === '^';
    if (negated) this.i++;
    const chars: string[] = [];
    while (this.i < this.src.length && this.src[this.i] !== ']') {
      let c = this.src[this.i++]!;
      if (c === '\\') {
        const e = this.escape(this.src[this.i++] ?? '\\');
        if (e.kind === 'chars') chars.push(...e.pool);
        continue;
      }
      if (this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && this.i + 1 < this.src.length) {
        const to = this.src[this.i + 1]!;
        this.i += 2;
        const mid = String.fromCharCode((c.charCodeAt(0) + to.charCodeAt(0)) >> 1);
        chars.push(c, mid, to);
        c = '';
      }
      if (c !== '') chars.push(c);
    }
    this.i++; // ']'
    const pool = negated ? ANY.filter((a) => !chars.includes(a[0]!)) : chars;
    return { kind: 'chars', pool: pool.length === 0 ? ['a'] : pool };
  }

  private escape(c: string): Node {
    if (c === 'd') return { kind: 'chars', pool: DIGITS };
    if (c === 'w') return { kind: 'chars', pool: WORD };
    if (c === 'D' || c === 'W' || c === 'S') return { kind: 'chars', pool: NON_WORD };
    if (c === 's') return { kind: 'chars', pool: [' ', '%20'] };
    return { kind: 'chars', pool: [c] };
  }

  private quantified(node: Node): Node {
    const c = this.src[this.i];
    let min = 1;
    let max = 1;
    if (c === '?') [min, max] = [0, 1];
    else if (c === '*') [min, max] = [0, 3];
    else if (c === '+') [min, max] = [1, 3];
    else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.src.slice(this.i))) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i))!;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? min + 3 : Number(m[3]);
      this.i += m[0].length - 1;
    } else return node;
    this.i++;
    if (this.src[this.i] === '?') this.i++; // lazy: the same strings
    return { kind: 'repeat', node, min, max: Math.min(max, min + 3) };
  }
}

function generate(node: Node, rnd: () => number, out: string[]): void {
  switch (node.kind) {
    case 'seq':
      for (const item of node.items) generate(item, rnd, out);
      return;
    case 'alt':
      generate(node.options[Math.floor(rnd() * node.options.length)]!, rnd, out);
      return;
    case 'chars':
      out.push(node.pool[Math.floor(rnd() * node.pool.length)]!);
      return;
    case 'repeat': {
      const n = node.min + Math.floor(rnd() * (node.max - node.min + 1));
      for (let k = 0; k < n; k++) generate(node.node, rnd, out);
    }
  }
}

/** `count` strings drawn from `regexp`'s source (case and anchors aside). */
export function drawFrom(regexp: RegExp, count: number, seed: number): string[] {
  const tree = new Parser(regexp.source).parse();
  const rnd = seeded(seed);
  const found = new Set<string>();
  for (let k = 0; k < count; k++) {
    const parts: string[] = [];
    generate(tree, rnd, parts);
    found.add(parts.join(''));
  }
  return [...found];
}

/**
 * The near misses of one path: a segment more or less, trailing slashes,
 * a suffix after a dot, other case, encoded characters, doubled slashes.
 */
export function nearMisses(path: string): string[] {
  const out = [
    path + '/',
    path + '//',
    path + '/extra',
    path + '/extra/more',
    path + '.json',
    path + 'x',
    path.toUpperCase(),
    path.replace(/\/([^/]*)$/, ''),
    path.replace(/\/$/, ''),
    path.replace(/\//g, '//'),
    path.replace(/a/g, '%61'),
    path + '/%zz',
  ];
  const slash = path.lastIndexOf('/');
  if (slash > 0) out.push(path.slice(0, slash) + '/.' + path.slice(slash + 1));
  return out;
}

/**
 * Samples of both patterns and their near misses, each starting with '/'.
 * Paths of slashes alone ('//') are left out: Express 5's `get('/')` serves
 * `//` and Express 4's does not, a difference of the root route in every
 * app, said once in docs/migrating-v4.md rather than as a finding per app.
 */
export function samplePaths(patterns: RegExp[], perPattern = 150): string[] {
  const all = new Set<string>(['/', '/a', '/a/b']);
  patterns.forEach((regexp, n) => {
    for (const s of drawFrom(regexp, perPattern, 0x5eed + n)) {
      const path = s.startsWith('/') ? s : '/' + s;
      all.add(path);
      for (const miss of nearMisses(path)) if (miss.startsWith('/')) all.add(miss);
    }
  });
  return [...all].filter((p) => !/^\/\/+$/.test(p));
}
