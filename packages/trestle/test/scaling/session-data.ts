// What the scaling servers keep in a session, for express-session's types.
export {};

declare module 'express-session' {
  interface SessionData {
    user: string;
  }
}
