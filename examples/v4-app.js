// An Express 4 app, unchanged but for its require: routes with v4 paths
// (`:id(\\d+)`, `:format?`), a param trigger, ejs views, sessions through
// express-session, JSON and form bodies, and an error handler.
'use strict';
const path = require('path');
const express = require('trestle/v4');
const session = require('express-session');

function createApp() {
  const app = express();
  const notes = [{ id: 1, text: 'Buy milk' }];

  app.set('views', path.join(__dirname, 'views'));
  app.set('view engine', 'ejs');
  app.locals.footer = 'Served by trestle/v4';
  app.use(session({ secret: 'example secret', resave: false, saveUninitialized: true }));
  app.use(express.json());
  app.use(express.urlencoded({ extended: true }));
  app.use((req, res, next) => {
    req.session.visits = (req.session.visits || 0) + 1;
    res.locals.visits = req.session.visits;
    next();
  });

  app.param('id', (req, res, next, id) => {
    req.note = notes.find((n) => n.id === Number(id));
    if (!req.note) return next(Object.assign(new Error('No note ' + id), { status: 404 }));
    next();
  });

  app.get('/', (req, res) => res.render('notes', { title: 'Notes', notes, base: '' }));
  app.get('/notes/:id(\\d+).:format?', (req, res) => {
    if (req.params.format === 'json') return res.json(req.note);
    res.send(req.note.text);
  });
  app.post('/notes', (req, res) => {
    if (!req.body.text) return res.send(400, 'text is required');
    const note = { id: notes.length + 1, text: String(req.body.text) };
    notes.push(note);
    res.json(201, note);
  });

  app.use((err, req, res, next) => {
    res.status(err.status || 500).json({ error: err.message });
  });
  return app;
}

if (require.main === module) {
  const port = Number(process.env.PORT) || 3000;
  createApp().listen(port, () => console.log('v4 example on http://localhost:' + port));
}
module.exports = createApp;
