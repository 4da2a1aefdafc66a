// content-disposition 0.5 (Express 4's), under its alias; the one call we make.
declare module 'content-disposition-v0' {
  function contentDisposition(filename?: string, options?: { type?: string; fallback?: string | boolean }): string;
  export = contentDisposition;
}
