// Who the client is, for `app.fetch`: a `Request` does not say. The caller
// says it in `options` ({ remoteAddress, remotePort }); a runtime's own server
// passes its own object as fetch's second argument, which says it its way:
// Deno.serve's handler info (`info.remoteAddr`), Bun.serve's server
// (`server.requestIP(request)`).

/** The socket fields the peer fills in. */
export interface PeerFields {
  remoteAddress: string | undefined;
  remotePort: number | undefined;
  remoteFamily: string | undefined;
}

interface DenoInfo {
  remoteAddr?: { hostname?: string; port?: number };
}
interface BunServer {
  requestIP?(request: Request): { address: string; port: number } | null;
}
type SecondArgument = { remoteAddress?: string | undefined; remotePort?: number | undefined } & DenoInfo & BunServer;

/** Fills `socket`'s remote address, port and family from fetch's second argument. */
export function setPeer(socket: PeerFields, request: Request, second: SecondArgument | undefined): void {
  let address: string | undefined;
  let port: number | undefined;
  if (second !== undefined && second !== null) {
    address = second.remoteAddress;
    port = second.remotePort;
    if (address === undefined) {
      if (second.remoteAddr !== undefined) {
        address = second.remoteAddr.hostname;
        port = second.remoteAddr.port;
      } else if (typeof second.requestIP === 'function') {
        const ip = second.requestIP(request);
        address = ip?.address;
        port = ip?.port;
      }
    }
  }
  socket.remoteAddress = address;
  socket.remotePort = port;
  socket.remoteFamily = address === undefined ? undefined : address.includes(':') ? 'IPv6' : 'IPv4';
}
