// Placeholder: the framework lands with issue 2.
function trestle(): never {
  throw new Error('trestle: not built yet');
}
export = trestle;
