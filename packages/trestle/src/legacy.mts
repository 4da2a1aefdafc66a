// ESM entry: the same instance as the CommonJS one, so an app mixing
// `import` and `require` sees one framework.
import trestle from './legacy.js';

export default trestle;
export const { Router, Route, application, request, response } = trestle;
