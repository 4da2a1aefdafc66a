import trestle from './index.js';
export default trestle;
