// trestle-otel: OpenTelemetry instrumentation for trestle, built on the
// diagnostics channels trestle publishes (see docs/observability.md).
export { LAYER_CHANNEL, TrestleInstrumentation } from './instrumentation';
export {
  AttributeNames,
  type ExpressRequestCustomAttributeFunction,
  type ExpressRequestInfo,
  ExpressLayerType,
  type IgnoreMatcher,
  type LayerRun,
  type SpanNameHook,
  type TrestleInstrumentationConfig,
} from './types';
