// The branch of apimocker that its own tests never run: `/admin/setMock`
// with the new route in the query string, read with req.param() (removed in
// Express 5). Run in the app's folder; prints the status and body.
'use strict';
const http = require('node:http');
const path = require('node:path');

const apiMocker = require(path.resolve('lib/apimocker.js'));
const mocker = apiMocker.createServer({ quiet: true }).setConfigFile('config.json');
// start() calls app.listen(port) on every interface: here, 127.0.0.1 and a free port.
mocker.express.listen = (_port, callback) => http.createServer(mocker.express).listen(0, '127.0.0.1', callback);
mocker.start(0, async () => {
  const { port } = mocker.expressInstance.address();
  const res = await fetch(`http://127.0.0.1:${port}/admin/setMock?verb=get&serviceUrl=added&mockFile=king.json`);
  console.log(`status ${res.status} ${(await res.text()).slice(0, 200)}`);
  mocker.expressInstance.closeAllConnections();
  mocker.stop();
});
