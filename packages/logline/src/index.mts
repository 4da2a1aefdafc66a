// The ESM entry: the same factory as `require('logline-http')`, as the default
// export, plus its members as named exports for `import { token } ...`.
import logger from './index.js';

export default logger;
export const token = logger.token;
export const format = logger.format;
export const compile = logger.compile;
export type {
  FormatFn,
  HrTime,
  LegacyLoggerOptions,
  LoggerOptions,
  LogStream,
  LoglineMiddleware,
  LoglineRequest,
  LoglineResponse,
  NextFunction,
  TokenCallback,
  TokenIndexer,
  TokenValue,
} from './types.js';
