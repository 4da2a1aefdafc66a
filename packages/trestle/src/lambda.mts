// `trestle/lambda` (ESM): the same functions as the CommonJS entry.
import entry from './lambda.js';

export const { lambda, lambdaOf } = entry;
