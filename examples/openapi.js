// An API whose routes validate their input with zod and describe
// themselves, and which serves its own OpenAPI 3.1 document (built from the
// routes by trestle.openapi) with Swagger UI at /docs.
//   npm install trestle zod swagger-ui-express
//   node examples/openapi.js   then open http://localhost:3000/docs
'use strict';
const trestle = require('trestle');
const swaggerUi = require('swagger-ui-express');
const z = require('zod');

const Book = z.object({ id: z.number().int(), title: z.string(), year: z.number().int().optional() });
const NewBook = Book.omit({ id: true });

function createApp() {
  const app = trestle();
  const books = [{ id: 1, title: 'The Left Hand of Darkness', year: 1969 }];
  app.use(trestle.json());

  const api = trestle.Router();
  api.use(trestle.describe({ tags: ['books'] }));
  api.get(
    '/books',
    trestle.describe({ summary: 'List books', responses: { 200: { description: 'The books', schema: z.array(Book) } } }),
    trestle.validate({ query: z.object({ limit: z.coerce.number().int().min(1).max(50).default(20) }) }),
    function listBooks(req, res) {
      res.json(books.slice(0, req.query.limit));
    },
  );
  api.get(
    '/books/:id',
    trestle.describe({ summary: 'One book', responses: { 200: { description: 'The book', schema: Book }, 404: { description: 'No such book' } } }),
    trestle.validate({ params: z.object({ id: z.coerce.number().int() }) }),
    function showBook(req, res) {
      const book = books.find((b) => b.id === req.params.id);
      if (book) res.json(book);
      else res.status(404).json({ error: `No book ${req.params.id}` });
    },
  );
  api.post(
    '/books',
    trestle.describe({ summary: 'Add a book', responses: { 201: { description: 'The book added', schema: Book } } }),
    trestle.validate({ body: NewBook }),
    function addBook(req, res) {
      const book = { id: books.length + 1, ...req.body };
      books.push(book);
      res.status(201).json(book);
    },
  );
  app.use('/api', api);

  // Built once all routes are in place; the document describes the app as it is.
  const document = trestle.openapi(app, { info: { title: 'Books', version: '1.0.0' }, servers: [{ url: '/' }] });
  app.get('/openapi.json', (req, res) => res.json(document));
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(document));
  return app;
}

if (require.main === module) {
  const port = Number(process.env.PORT) || 3000;
  createApp().listen(port, () => console.log(`OpenAPI example on http://localhost:${port}/docs`));
}
module.exports = createApp;
