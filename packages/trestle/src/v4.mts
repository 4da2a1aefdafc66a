// ESM entry: the same instance as the CommonJS one, so an app mixing
// `import` and `require` sees one framework.
import trestle from './v4.js';

export default trestle;
export const { Router, Route, application, request, response, json, urlencoded, raw, text, shutdown, shutdownOnSignals, deadline, applyServerLimits, routes, validate, describe, openapi, attachWebSockets, checkOrigin, bunWebSocket, query } = trestle;
// `static` is a reserved word: it cannot be a binding, only an export name.
const serveStatic = trestle.static;
export { serveStatic as static };
