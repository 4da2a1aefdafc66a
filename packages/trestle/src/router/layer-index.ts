// Which layers of a stack can match a path, without asking each one. Every
// layer has a literal prefix its matches start with (see CompiledPath); a
// character trie of those prefixes yields, for a request path, the few
// layers whose prefix it starts with. Layers with no prefix (user regular
// expressions, `use('/')`) are candidates for every path. Definition order
// is kept: the router still visits candidates in stack order.
import type { Layer } from './layer';

interface TrieNode {
  /** Stack indices of the layers whose prefix ends at this node. */
  layers: number[];
  next: Map<number, TrieNode>;
}

/** Below this many prefixed layers, asking each layer is cheaper than the index. */
const WORTHWHILE = 8;

export interface LayerIndex {
  /** The stack indices that may match `path`, ascending. */
  candidates(path: string): number[];
}

function node(): TrieNode {
  return { layers: [], next: new Map() };
}

function prefixOf(layer: Layer): string {
  if (layer.matchesAll || layer.matchers.length !== 1) return '';
  return layer.matchers[0]!.prefix;
}

/** Builds an index for `stack`, or undefined when it would not pay for itself. */
export function buildIndex(stack: readonly Layer[], sensitive: boolean): LayerIndex | undefined {
  const root = node();
  let prefixed = 0;
  stack.forEach((layer, i) => {
    const prefix = prefixOf(layer);
    let at = root;
    for (let c = 0; c < prefix.length; c++) {
      const code = prefix.charCodeAt(c);
      let child = at.next.get(code);
      if (child === undefined) at.next.set(code, (child = node()));
      at = child;
    }
    at.layers.push(i);
    if (prefix.length !== 0) prefixed++;
  });
  if (prefixed < WORTHWHILE) return undefined;

  return {
    candidates(path: string): number[] {
      const found: number[][] = root.layers.length === 0 ? [] : [root.layers];
      let at: TrieNode | undefined = root;
      for (let i = 0; i < path.length && at !== undefined; i++) {
        let code = path.charCodeAt(i);
        // Prefixes of case-insensitive layers are lower case; fold ASCII the same way.
        if (!sensitive && code >= 65 && code <= 90) code += 32;
        at = at.next.get(code);
        if (at !== undefined && at.layers.length !== 0) found.push(at.layers);
      }
      return found.length === 1 ? found[0]! : found.flat().sort((a, b) => a - b);
    },
  };
}
