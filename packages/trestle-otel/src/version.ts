// The instrumentation scope's name and version (kept in step with package.json).
export const PACKAGE_NAME = 'trestle-otel';
export const PACKAGE_VERSION = '0.1.0';
