// TypeDoc plugin for entries written as `export = factory` (trestle, logline).
// - Their default export would be listed as "export="; name it after what it
//   exports (the `trestle` factory, the `logger` function), as the user docs
//   and `require()` call sites do.
// - A function merged with a `declare namespace` of types (logline's `logger`)
//   loses its own members (`logger.token`, `logger.format`, `logger.compile`):
//   TypeDoc leaves them to the namespace, which holds only the types. Convert
//   them into that namespace, so they are documented (and checked) there.
import ts from 'typescript';
import { Converter, ReflectionKind } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    const symbol = context.getSymbolFromReflection(reflection);
    if (reflection.name === 'export=') {
      const declared = symbol?.declarations?.[0];
      const name = declared && 'name' in declared && declared.name ? declared.name.getText() : undefined;
      if (name) reflection.name = name;
    }
    if (symbol && reflection.kindOf(ReflectionKind.Namespace) && symbol.flags & ts.SymbolFlags.Function) {
      const scope = context.withScope(reflection);
      for (const member of context.checker.getTypeOfSymbol(symbol).getProperties()) {
        context.converter.convertSymbol(scope, member);
      }
    }
  });
}
