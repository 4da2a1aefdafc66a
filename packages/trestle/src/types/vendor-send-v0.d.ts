// send 0.19 (Express 4's), under its alias: send 1.x's API plus the `mime`
// 1.x object it exports, whose members we call.
declare module 'send-v0' {
  import send = require('send');
  interface MimeV1 {
    lookup(path: string, fallback?: string): string;
    extension(type: string): string | undefined;
    define(map: Record<string, string[]>, force?: boolean): void;
    charsets: { lookup(type: string, fallback?: string): string | undefined };
    types: Record<string, string>;
    extensions: Record<string, string>;
    default_type: string;
  }
  function sendV0(req: import('node:http').IncomingMessage, path: string, options?: send.SendOptions): send.SendStream;
  namespace sendV0 {
    const mime: MimeV1;
  }
  export = sendV0;
}
