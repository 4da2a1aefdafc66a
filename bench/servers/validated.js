'use strict';
// The validated scenario's one schema: a zod object, which trestle checks
// with trestle.validate({ body }), and the same schema written as JSON
// Schema by zod itself (z.toJSONSchema, the input side, draft-07: the draft
// Fastify's ajv reads), which Fastify checks with its own ajv. Both are
// literally one schema, so the rows differ only in who validates.
const z = require('zod');

const User = z.object({
  name: z.string().min(1).max(100),
  email: z.email(),
  age: z.number().int().min(0).max(150),
  tags: z.array(z.string().max(30)).max(10),
});

const userJsonSchema = z.toJSONSchema(User, { target: 'draft-7', io: 'input' });

// Three problems: a request each validating row refuses with 400, and each
// `unvalidated` row passes with 200.
const INVALID = JSON.stringify({ name: '', email: 'not an email', age: 36.5, tags: [] });

/**
 * Before saying "ready", a server asks itself (in process: trestle's
 * app.fetch, Fastify's inject) with the invalid body, so a row that skips
 * validation, or one that validates when it should not, never gets measured.
 * `statusOf(body)` resolves to the status the app answers a POST of `body`.
 */
async function checkValidation(variant, statusOf) {
  const status = await statusOf(INVALID);
  const wanted = variant === 'unvalidated' ? 200 : 400;
  if (status !== wanted) throw new Error(`validated scenario (${variant ?? 'validated'}): an invalid body got ${status}, expected ${wanted}`);
}

module.exports = { User, userJsonSchema, checkValidation };
