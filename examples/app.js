// The example `npm start` serves: the README's two routes (/users/:id and
// POST /echo), then a small bookshelf API with routers, route parameters, a
// param trigger, an error handler and request logging.
'use strict';
const trestle = require('trestle');
const logger = require('logline-http');

const books = new Map([
  ['1', { id: '1', title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin' }],
  ['2', { id: '2', title: 'Invisible Cities', author: 'Italo Calvino' }],
]);

function createApp() {
  const app = trestle();
  app.use(logger('dev'));
  app.use(trestle.json());

  // The README's snippet.
  app.get('/users/:id', (req, res) => res.json({ id: req.params.id }));
  app.post('/echo', (req, res) => res.status(201).send(req.body));

  app.get('/', (req, res) => {
    res.type('html').send(
      '<h1>Trestle example</h1><ul>' +
        '<li><a href="/users/7">GET /users/7</a></li>' +
        '<li><a href="/books">GET /books</a></li>' +
        '<li><a href="/books/1">GET /books/1</a></li>' +
        '<li><a href="/books/99">GET /books/99</a> (404 from a param trigger)</li>' +
        '<li><a href="/boom">GET /boom</a> (error handler)</li>' +
        '</ul>',
    );
  });

  const api = trestle.Router();
  // Load the book once per request, whichever route uses :bookId.
  api.param('bookId', (req, res, next, id) => {
    const book = books.get(id);
    if (!book) return next(Object.assign(new Error(`No book ${id}`), { status: 404 }));
    req.book = book;
    next();
  });
  api.get('/', (req, res) => res.json([...books.values()]));
  api.get('/:bookId', (req, res) => res.json(req.book));
  api.get('/:bookId/title', (req, res) => res.send(req.book.title));
  app.use('/books', api);

  app.get('/boom', async () => {
    throw new Error('Something broke on purpose');
  });

  // Errors with a status are the client's; the rest are ours.
  app.use((err, req, res, next) => {
    const status = err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) console.error(err.stack);
    res.status(status).json({ error: status === 500 ? 'Internal Server Error' : err.message });
  });
  return app;
}

if (require.main === module) {
  const port = Number(process.env.PORT) || 3000;
  createApp().listen(port, () => console.log(`trestle example listening on http://localhost:${port}`));
}

module.exports = createApp;
