// What the real Express packages the tests compare against cannot do on the
// running Node. Kept apart from twin.ts, which loads them: Express 3 reads
// NODE_ENV as it loads, so importing this must not load it.
import { OutgoingMessage } from 'node:http';

/**
 * Why Express 3 cannot answer a conditional GET with 304 on the running
 * Node, or undefined where it can: its freshness check reads `res._headers`,
 * which Node 24 removed (DEP0066), so it always answers 200 there.
 * trestle/legacy reads headers through getHeaders() and keeps its 304s.
 */
export const EXPRESS3_NO_304: string | undefined = '_headers' in OutgoingMessage.prototype
  ? undefined
  : 'Express 3 reads res._headers for freshness, which this Node removed (DEP0066): it never answers 304';
