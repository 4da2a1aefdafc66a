// Middleware typed for Express (through @types/express), used on trestle as
// its README shows. Compiled, never run; test/ecosystem.test.ts runs them.
import compression from 'compression';
import type { ErrorRequestHandler as ExpressErrorHandler, RequestHandler as ExpressHandler } from 'express';
import cookieParser from 'cookie-parser';
import cors from 'cors';
import session from 'express-session';
import helmet from 'helmet';
import multer from 'multer';
import passport from 'passport';
import trestle from 'trestle';
import trestleV4 from 'trestle/v4';
import { expectType } from './expect';

const app = trestle();
const upload = multer({ storage: multer.memoryStorage() });

app.use(cors(), helmet(), compression(), cookieParser('secret'));
app.use(session({ secret: 's', resave: false, saveUninitialized: false }));
app.use(passport.initialize(), passport.session());
app.use('/api', cors({ origin: 'http://client.test' }), compression());

// Middleware first, then an inline handler: the handler is still typed from
// the path, and sees what the middleware's types add to the request.
app.post('/users/:id/avatar', upload.single('avatar'), (req, res) => {
  expectType<string>()(req.params.id);
  expectType<Express.Multer.File | undefined>()(req.file);
  res.json({ size: req.file?.size });
});
app.route('/users/:id/photos').post(upload.array('photos'), (req, res) => {
  expectType<string>()(req.params.id);
  res.sendStatus(204);
});
app.use('/me', passport.authenticate('session'), (req, res) => {
  expectType<boolean>()(req.isAuthenticated());
  res.json(req.user);
});
app.get('/visits', (req, res) => {
  expectType<string>()(req.sessionID);
  res.json(req.session.cookie.maxAge);
});

// A package's own handlers typed with Express's names, error handlers among them.
const audit: ExpressHandler = (req, _res, next) => {
  req.headers['x-audit'] = '1';
  next();
};
const reportError: ExpressErrorHandler = (err, _req, res, _next) => {
  res.status(500).json({ error: String(err) });
};
app.use(audit);
app.get('/audited/:id', audit, (req, res) => res.send(req.params.id));
app.use(reportError);
app.use('/api', audit, reportError);

// The same on the v4 entry, with a v4 path.
const v4 = trestleV4();
v4.use(cors(), compression());
v4.post('/notes/:id(\\d+)', upload.none(), (req, res) => {
  expectType<string>()(req.params.id);
  res.end();
});

// Still refused: a handler whose request and response are not those at all.
// @ts-expect-error -- a number is no request, a string no response
app.post('/x', upload.none(), (_req: number, _res: string) => undefined);
