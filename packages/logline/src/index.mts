import logger from './index.js';
export default logger;
