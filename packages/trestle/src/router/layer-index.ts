// Which layers of a stack can match a path, without asking each one. Every
// layer has a literal prefix its matches start with (see CompiledPath); a
// compressed trie of those prefixes yields, for a request path, the few
// layers whose prefix it starts with. Layers with no prefix (`use('/')`,
// unanchored or alternating regular expressions: see path/regexp-prefix.ts)
// are candidates for every path. A route with no parameters matches its
// prefix and nothing longer, so it is offered only to a path that ends there
// (or with one more '/'): of `/users` and `/users/:id`, a request for
// `/users/42` is offered the second alone. Definition order is kept: the
// router still visits candidates in stack order.
import type { Layer } from './layer';

/**
 * Most nodes have either layers or edges, not both (with 5,000 routes, each
 * route's node is a leaf): each is made when first needed, which halves the
 * index's memory (an empty Map alone is ~200 bytes).
 */
interface TrieNode {
  /** Stack indices of the layers whose prefix ends at this node. */
  layers: number[] | undefined;
  /** Those of the layers that match nothing longer than their prefix (see CompiledPath.exact). */
  exact: number[] | undefined;
  /** Edges by their label's first character code. */
  next: Map<number, TrieEdge> | undefined;
}

/**
 * A run of characters no prefix ends inside (a compressed trie): a request
 * path follows it in one comparison instead of one map lookup per character.
 */
interface TrieEdge {
  label: string;
  to: TrieNode;
}

const NONE: readonly number[] = [];

/** Below this many prefixed layers, asking each layer is cheaper than the index. */
const WORTHWHILE = 8;

export interface LayerIndex {
  /** The stack indices that may match `path`, ascending. */
  candidates(path: string): readonly number[];
}

function node(): TrieNode {
  // A Map, not an array by character code: that measured ~10 ns faster a
  // lookup but tripled the index's memory (1 KiB a node).
  return { layers: undefined, exact: undefined, next: undefined };
}

function prefixOf(layer: Layer): string {
  if (layer.matchesAll || layer.matchers.length !== 1) return '';
  return layer.matchers[0]!.prefix;
}

function isExact(layer: Layer): boolean {
  return !layer.matchesAll && layer.matchers.length === 1 && layer.matchers[0]!.exact;
}

/** Does `path` end at `i`, or at `i` and one '/' after it? */
function endsAt(path: string, i: number): boolean {
  return i === path.length || (i === path.length - 1 && path.charCodeAt(i) === 47);
}

/** The node where `prefix` ends, made (splitting an edge if need be) when missing. */
function insert(root: TrieNode, prefix: string): TrieNode {
  let at = root;
  let i = 0;
  while (i < prefix.length) {
    const edge = at.next?.get(prefix.charCodeAt(i));
    if (edge === undefined) {
      const to = node();
      (at.next ??= new Map()).set(prefix.charCodeAt(i), { label: prefix.slice(i), to });
      return to;
    }
    let common = 1;
    while (common < edge.label.length && i + common < prefix.length && edge.label[common] === prefix[i + common]) common++;
    if (common < edge.label.length) {
      // The new prefix ends, or turns off, inside this edge: split it there.
      const middle = node();
      middle.next = new Map([[edge.label.charCodeAt(common), { label: edge.label.slice(common), to: edge.to }]]);
      edge.label = edge.label.slice(0, common);
      edge.to = middle;
    }
    at = edge.to;
    i += common;
  }
  return at;
}

/**
 * Does `path` hold `label` at `from`? Its first character was matched by the
 * edge lookup already. Prefixes of case-insensitive layers are lower case;
 * ASCII is folded the same way. A plain loop: String#startsWith measured
 * slower for these short labels.
 */
function follows(path: string, from: number, label: string, sensitive: boolean): boolean {
  if (from + label.length > path.length) return false;
  for (let k = 1; k < label.length; k++) {
    const code = path.charCodeAt(from + k);
    const want = label.charCodeAt(k);
    if (code !== want && (sensitive || code < 65 || code > 90 || code + 32 !== want)) return false;
  }
  return true;
}

/** Builds an index for `stack`, or undefined when it would not pay for itself. */
export function buildIndex(stack: readonly Layer[], sensitive: boolean): LayerIndex | undefined {
  const root = node();
  let prefixed = 0;
  stack.forEach((layer, i) => {
    const prefix = prefixOf(layer);
    const at = insert(root, prefix);
    if (prefix.length !== 0 && isExact(layer)) (at.exact ??= []).push(i);
    else (at.layers ??= []).push(i);
    if (prefix.length !== 0) prefixed++;
  });
  if (prefixed < WORTHWHILE) return undefined;

  return {
    candidates(path: string): readonly number[] {
      // Most paths end at one node with layers: no list of lists for them.
      let first: number[] | undefined = root.layers;
      let more: number[][] | undefined;
      let at = root;
      let i = 0;
      while (i < path.length) {
        let code = path.charCodeAt(i);
        if (!sensitive && code >= 65 && code <= 90) code += 32;
        const edge = at.next?.get(code);
        if (edge === undefined || !follows(path, i, edge.label, sensitive)) break;
        at = edge.to;
        i += edge.label.length;
        if (at.layers !== undefined) {
          if (first === undefined) first = at.layers;
          else (more ??= [first]).push(at.layers);
        }
        if (at.exact !== undefined && endsAt(path, i)) {
          if (first === undefined) first = at.exact;
          else (more ??= [first]).push(at.exact);
        }
      }
      if (more !== undefined) return more.flat().sort((a, b) => a - b);
      return first ?? NONE;
    },
  };
}
