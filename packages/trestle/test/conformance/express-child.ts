// Runs one conformance case on real Express in a process of its own, for a
// case whose Express throws out of its final handler and so ends the
// process. Usage: express-child.ts <generation> <case name>. Prints
// "answered" or "crashed <message>".
import { CASES } from './cases/index';
import type { Generation } from './harness';
import { runCase } from './runner';

const [gen, name] = process.argv.slice(2) as [Generation, string];
const c = CASES.find((x) => x.name === name);
if (c === undefined) throw new Error(`no case named ${name}`);
process.on('uncaughtException', (err) => {
  process.stdout.write(`crashed ${err.message}`);
  process.exit(0);
});
runCase('express', gen, c).then(
  () => process.stdout.write('answered'),
  (err: Error) => process.stdout.write(`answered differently: ${err.message}`),
);
