// An Express-style app deployed on AWS Lambda (docs/deploy.md#aws-lambda):
// the same app answers API Gateway (REST and HTTP APIs), an Application Load
// Balancer and a function URL. Set the function's handler to
// `lambda.handler`; for a function URL in RESPONSE_STREAM mode, use
// `lambda.streamingHandler` instead (it streams /events as written).
'use strict';
const trestle = require('trestle');
const logger = require('logline-http');
const { lambda, lambdaOf } = require('trestle/lambda');

const app = trestle();
// One line per request to CloudWatch (stdout), as logline writes it anywhere.
app.use(logger(':method :url :status :res[content-length] - :response-time ms'));
app.use(trestle.json());

const notes = [{ id: 1, text: 'Deploy to Lambda' }];

app.get('/notes', (req, res) => res.json(notes));

app.post('/notes', (req, res) => {
  const note = { id: notes.length + 1, text: String(req.body.text ?? '') };
  notes.push(note);
  res.cookie('last-note', String(note.id), { httpOnly: true });
  res.status(201).json(note);
});

// The invocation: AWS's event and Lambda's context.
app.get('/whoami', (req, res) => {
  const { event, context } = lambdaOf(req) ?? {};
  res.json({ ip: req.ip, requestId: context?.awsRequestId, stage: event?.requestContext?.stage });
});

// Binary: a PNG goes back base64-encoded without any configuration.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
app.get('/pixel.png', (req, res) => res.type('png').send(PIXEL));

// Server-sent events: streamed as written under `streamingHandler`, whole under `handler`.
app.get('/events', (req, res) => {
  res.set('content-type', 'text/event-stream');
  let n = 0;
  const tick = () => {
    res.write(`data: ${++n}\n\n`);
    if (n === 3) res.end();
    else setImmediate(tick);
  };
  tick();
});

exports.app = app;
exports.handler = lambda(app);
// awslambda exists only inside Lambda's Node.js runtime.
if (typeof globalThis.awslambda !== 'undefined') exports.streamingHandler = lambda(app, { streaming: true });
