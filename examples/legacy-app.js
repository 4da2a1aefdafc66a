// An Express 3 app, unchanged but for its require: app.configure, the
// bundled logger, bodyParser (with uploads in req.files) and static,
// app.use(app.router), ejs views, sessions through express-session, and the
// response forms of that generation (res.send(status, body)).
'use strict';
const path = require('path');
const express = require('trestle/legacy');
const session = require('express-session');

function createApp(options) {
  const app = express();
  const notes = [{ id: 1, text: 'Buy milk' }];
  const log = (options && options.logStream) || process.stdout;

  app.configure(function () {
    app.set('views', path.join(__dirname, 'views'));
    app.set('view engine', 'ejs');
    app.use(express.logger('dev', { stream: log }));
    app.use(express.bodyParser());
    app.use(session({ secret: 'example secret', resave: false, saveUninitialized: true }));
    app.use(function (req, res, next) {
      req.session.visits = (req.session.visits || 0) + 1;
      res.locals.visits = req.session.visits;
      next();
    });
    app.use(app.router);
    app.use('/public', express.static(path.join(__dirname, 'views')));
  });
  app.configure('development', function () {
    app.locals.footer = 'Served by trestle/legacy (development)';
  });
  app.locals({ footer: app.locals.footer || 'Served by trestle/legacy' });

  app.param('id', function (req, res, next, id) {
    req.note = notes.filter(function (n) { return n.id === Number(id); })[0];
    if (!req.note) return res.send(404, 'No note ' + id);
    next();
  });

  app.get('/', function (req, res) {
    res.render('notes', { title: 'Notes', notes: notes, base: '' });
  });
  app.get('/notes/:id', function (req, res) {
    res.send(req.note.text);
  });
  // A form with a text field and an optional file.
  app.post('/notes', function (req, res) {
    if (!req.body.text) return res.send(400, 'text is required');
    const note = { id: notes.length + 1, text: String(req.body.text) };
    if (req.files.attachment) note.file = req.files.attachment.name + ', ' + req.files.attachment.size + ' bytes';
    notes.push(note);
    res.json(201, note);
  });
  return app;
}

if (require.main === module) {
  const port = Number(process.env.PORT) || 3000;
  createApp().listen(port, function () { console.log('legacy example on http://localhost:' + port); });
}
module.exports = createApp;
