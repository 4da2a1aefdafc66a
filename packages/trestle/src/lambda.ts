// `trestle/lambda` (CommonJS): an app as an AWS Lambda handler, see docs/deploy.md.
export { lambda, lambdaOf } from './platforms/lambda/index';
export type * from './platforms/lambda/types';
