// The source pass: the app's own files (JavaScript and TypeScript) read with
// a real parser (@babel/parser), for the places a run never reached: route
// and mount paths, removed call forms, req.query's members changed, req.body
// read unguarded. Each is a finding marked as found in the source; the
// report lists it apart from what was seen running, and leaves out a place
// the run saw. Loaded only when a report is written by the command or at the
// end of a run: trestle/v4 without the report loads none of it, and the
// parser is required here only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FindingKind } from './kinds';
import { guardOf } from './guards';
import { detailOf } from './paths';
import type { Finding, PathDetail } from './store';

type Node = { type: string; loc?: { start: { line: number; column: number } }; [key: string]: unknown };

const EXTENSIONS = new Set(['.js', '.cjs', '.mjs', '.jsx', '.ts', '.cts', '.mts', '.tsx']);
// Not the app's own source: dependencies, build output, tools' folders.
const SKIP = new Set(['node_modules', 'dist', 'build', 'coverage', 'out']);
const MAX_FILES = 3000;
const MAX_SIZE = 512 * 1024;

/** The app's source files under `root` (bounded; dependencies, build output and dot-folders left out). */
export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string, depth: number) => {
    if (depth > 12 || out.length >= MAX_FILES) return;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.') || SKIP.has(name) || out.length >= MAX_FILES) continue;
      const file = join(dir, name);
      let stat;
      try {
        stat = statSync(file);
      } catch {
        continue;
      }
      if (stat.isDirectory()) visit(file, depth + 1);
      else if (EXTENSIONS.has(extname(name)) && !name.endsWith('.d.ts') && stat.size <= MAX_SIZE) out.push(file);
    }
  };
  visit(root, 0);
  return out;
}

const ROUTE_METHODS = new Set(['get', 'post', 'put', 'delete', 'patch', 'all', 'options', 'head', 'del', 'route']);
const REQ = /^(req|request)$/;
const RES = /^(res|response)$/;

function nameOf(node: unknown): string | undefined {
  const n = node as Node | undefined;
  if (n?.type === 'Identifier') return n.name as string;
  return undefined;
}

/** `<object>.<name>` (not computed): the object and the name. */
function member(node: unknown): { object: Node; name: string; property: Node } | undefined {
  const n = node as Node;
  if ((n?.type !== 'MemberExpression' && n?.type !== 'OptionalMemberExpression') || n.computed) return undefined;
  const name = nameOf(n.property);
  return name === undefined ? undefined : { object: n.object as Node, name, property: n.property as Node };
}

/** `req.query` / `req.body` (with `req` or `request`): true for `which`. */
function isReqMember(node: unknown, which: string): boolean {
  const m = member(node);
  return m !== undefined && m.name === which && REQ.test(nameOf(m.object) ?? '');
}

function literalPath(node: unknown): string | undefined {
  const n = node as Node;
  const value = n?.type === 'StringLiteral' ? (n.value as string) : n?.type === 'TemplateLiteral' && (n.expressions as unknown[]).length === 0 ? ((n.quasis as Node[])[0]!.value as { cooked: string }).cooked : undefined;
  return value !== undefined && /^[/*]/.test(value) ? value : undefined;
}

class Pass {
  readonly found: Finding[] = [];
  constructor(private readonly file: string) {}

  add(kind: FindingKind, at: Node, detail: string, extra: { express5?: string; path?: PathDetail } = {}): void {
    const loc = at.loc?.start;
    if (loc === undefined) return;
    const f: Finding = { kind, file: this.file, line: loc.line, column: loc.column + 1, detail, count: 1, source: true };
    if (extra.express5 !== undefined) f.express5 = extra.express5;
    if (extra.path !== undefined) f.path = extra.path;
    this.found.push(f);
  }

  call(node: Node): void {
    const callee = member(node.callee);
    const args = node.arguments as Node[];
    if (callee === undefined) return;
    const receiver = nameOf(callee.object) ?? '';
    if (ROUTE_METHODS.has(callee.name) || callee.name === 'use') this.routePath(node, callee.name, args);
    if (callee.name === 'del' && literalPath(args[0]) !== undefined) this.add('app-del', node, `${receiver}.del(…)`, { express5: `${receiver}.delete(…)` });
    if (callee.name === 'assign' && receiver === 'Object' && isReqMember(args[0], 'query')) this.add('query-member', node, 'Object.assign(req.query, …)');
    if (REQ.test(receiver) && callee.name === 'param') this.add('req-param', node, `${receiver}.param(…)`);
    if (!RES.test(receiver)) return;
    const numeric = (n: Node | undefined) => n?.type === 'NumericLiteral';
    if (callee.name === 'send' && args.length === 2 && (numeric(args[0]) || numeric(args[1]))) this.add('send-status-body', node, `${receiver}.send(status, body)`);
    else if (callee.name === 'send' && args.length === 1 && numeric(args[0])) this.add('send-status', node, `${receiver}.send(${String((args[0] as Node).value)})`, { express5: `${receiver}.sendStatus(${String((args[0] as Node).value)})` });
    if ((callee.name === 'json' || callee.name === 'jsonp') && args.length === 2) this.add(`${callee.name}-status`, node, `${receiver}.${callee.name}(…, …)`);
    if (callee.name === 'sendfile') this.add('sendfile', node, `${receiver}.sendfile(…)`);
    if (callee.name === 'redirect' && args.some((a) => a.type === 'StringLiteral' && a.value === 'back')) this.add('redirect-back', node, `${receiver}.redirect('back')`);
  }

  routePath(node: Node, method: string, args: Node[]): void {
    const path = literalPath(args[0]);
    if (path === undefined) return;
    const mount = method === 'use';
    let detail: PathDetail | undefined;
    try {
      detail = detailOf(path, { end: !mount, strict: false, sensitive: false }, undefined);
    } catch {
      return;
    }
    if (detail === undefined) return;
    if (!mount && method !== 'route') detail.methods = [method === 'del' ? 'DELETE' : method.toUpperCase()];
    this.add(mount ? 'mount-path' : 'route-path', args[0]!, `'${path}'`, { express5: detail.suggestion, path: detail });
  }

  /** `req.body.x` read where the source shows no guard. */
  bodyRead(node: Node): void {
    const m = member(node);
    const object = (node.object as Node | undefined) ?? undefined;
    if (object === undefined || !isReqMember(object, 'body') || node.type === 'OptionalMemberExpression' || m?.name === undefined) return;
    const body = member(object)!.property;
    const loc = body.loc?.start;
    if (loc === undefined || guardOf({ file: this.file, line: loc.line, column: loc.column + 1 }) !== undefined) return;
    this.add('body-empty', body, `req.body.${m.name}`);
  }

  visit(node: unknown, parent: Node | undefined): void {
    if (Array.isArray(node)) {
      for (const child of node) this.visit(child, parent);
      return;
    }
    if (typeof node !== 'object' || node === null || typeof (node as Node).type !== 'string') return;
    const n = node as Node;
    if (n.type === 'CallExpression' || n.type === 'OptionalCallExpression') this.call(n);
    if (n.type === 'UnaryExpression' && n.operator === 'delete' && isReqMember(member(n.argument)?.object, 'query')) this.add('query-member', n, `delete req.query.${member(n.argument)!.name}`);
    if (n.type === 'AssignmentExpression' && isReqMember(member(n.left)?.object, 'query')) this.add('query-member', n, `req.query.${member(n.left)!.name} = …`);
    if (n.type === 'AssignmentExpression' && isReqMember(n.left, 'query')) this.add('query-assign', n, 'req.query = …');
    if (n.type === 'MemberExpression' && !(parent?.type === 'AssignmentExpression' && parent.left === n)) this.bodyRead(n);
    for (const key of Object.keys(n)) {
      if (key === 'loc' || key === 'start' || key === 'end' || key === 'comments' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments' || key === 'extra') continue;
      this.visit(n[key], n);
    }
  }
}

/** The findings the parser sees in `file`; none when it cannot read or parse it. */
export function scanFile(file: string): Finding[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const ext = extname(file);
  const typescript = ext.includes('ts');
  const { parse } = require('@babel/parser') as typeof import('@babel/parser');
  let ast: unknown;
  try {
    ast = parse(text, {
      sourceType: 'unambiguous',
      errorRecovery: true,
      allowReturnOutsideFunction: true,
      plugins: typescript ? ['typescript', 'decorators-legacy', ...(ext === '.tsx' ? (['jsx'] as const) : [])] : ['jsx'],
    });
  } catch {
    return [];
  }
  const pass = new Pass(file);
  pass.visit((ast as { program: unknown }).program, undefined);
  return pass.found;
}

/** The source findings of every app file under `root`. */
export function scanSources(root: string): Finding[] {
  return sourceFiles(root).flatMap(scanFile);
}
