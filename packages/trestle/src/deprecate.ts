// Deprecation warnings for the older generations' forms: printed to stderr
// once per call site, never thrown (unless the user runs with
// --throw-deprecation), silenced by --no-deprecation, via depd, the module
// Express uses, so the output is the one users know.
import depd from 'depd';

export const deprecate = depd('trestle');
