// The instrumentation's options and the shapes it reads from trestle's
// channels. Options are those of @opentelemetry/instrumentation-express, with
// the same meaning, so a configuration moves over unchanged.
import type { Span } from '@opentelemetry/api';
import type { InstrumentationConfig } from '@opentelemetry/instrumentation';

/** The `express.type` attribute's values, as the Express instrumentation sets them. */
export const ExpressLayerType = {
  ROUTER: 'router',
  MIDDLEWARE: 'middleware',
  REQUEST_HANDLER: 'request_handler',
} as const;
export type ExpressLayerType = (typeof ExpressLayerType)[keyof typeof ExpressLayerType];

/** The attributes the Express instrumentation sets on layer spans. */
export const AttributeNames = {
  EXPRESS_TYPE: 'express.type',
  EXPRESS_NAME: 'express.name',
} as const;

/** A layer name to skip: equal to the string, matching the expression, or approved by the function. */
export type IgnoreMatcher = string | RegExp | ((name: string) => boolean);

/** What the hooks learn of the layer being run. */
export interface ExpressRequestInfo<T = unknown> {
  /** The request. */
  request: T;
  /** The route built so far from the mount paths and the layer's own path (`/api/users/:id`). */
  route: string;
  layerType: ExpressLayerType;
}

/** Names a layer span; returning nothing keeps `defaultName`. */
export type SpanNameHook = (info: ExpressRequestInfo, defaultName: string) => string | undefined;

/** Adds attributes to a layer span when it starts. */
export type ExpressRequestCustomAttributeFunction = (span: Span, info: ExpressRequestInfo) => void;

export interface TrestleInstrumentationConfig extends InstrumentationConfig {
  /** Layers to skip, by name (a middleware's function name, `router - /path`'s path...). */
  ignoreLayers?: IgnoreMatcher[];
  /** Layer types to skip. */
  ignoreLayersType?: ExpressLayerType[];
  spanNameHook?: SpanNameHook;
  requestHook?: ExpressRequestCustomAttributeFunction;
}

/** A layer run as trestle publishes it on `tracing:trestle.layer:*` (see trestle's docs/observability.md). */
export interface LayerRun {
  req: unknown;
  res: unknown;
  layer: unknown;
  name: string;
  kind: 'middleware' | 'router' | 'route' | 'handler' | 'error_handler' | 'param';
  mountPath: string;
  layerPath: string | undefined;
  routePath: string | undefined;
  error?: unknown;
}
