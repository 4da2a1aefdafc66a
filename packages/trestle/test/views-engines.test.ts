// Template engines from the registry that follow the (path, options,
// callback) convention, used unchanged: each renders with app locals, response
// locals and the call's locals. nunjucks also replaces view lookup with its
// own class through app.set('view', ...).
import { join } from 'node:path';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle from 'trestle';

const views = join(__dirname, 'fixtures', 'views', 'engines');

/** An app rendering `view` with a local from each of the three levels. */
function appRendering(view: string, configure: (app: ReturnType<typeof trestle>) => void) {
  const app = trestle();
  app.set('views', views);
  configure(app);
  app.locals.footer = 'from app.locals';
  app.get('/', (_req, res) => {
    res.locals.name = 'res.locals';
    res.render(view, { greeting: 'Hello' });
  });
  return app;
}

const expected = '<p>Hello, res.locals! from app.locals</p>\n';

describe('registry template engines', () => {
  test('hbs, as the view engine, loaded by extension', async () => {
    const app = appRendering('greet', (a) => a.set('view engine', 'hbs'));
    await request(app).get('/').expect(200, expected);
  });

  test('express-handlebars, registered with app.engine', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { engine } = require('express-handlebars') as { engine(o: object): trestle.EngineCallback };
    const app = appRendering('greet', (a) => {
      a.engine('handlebars', engine({ defaultLayout: false }));
      a.set('view engine', 'handlebars');
    });
    // express-handlebars trims the template's final newline (Express 5 renders the same).
    await request(app).get('/').expect(200, expected.trimEnd());
  });

  test('nunjucks, which installs its own view class with app.set("view", ...)', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nunjucks = require('nunjucks') as { configure(dir: string, o: object): unknown };
    const app = appRendering('greet.njk', (a) => nunjucks.configure(views, { express: a, autoescape: true }));
    await request(app).get('/').expect(200, expected);
  });
});
