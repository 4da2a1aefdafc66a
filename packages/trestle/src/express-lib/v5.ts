// What Express 5's own files export, for code that requires them by path
// (`require('express/lib/request')`) with trestle installed under Express's
// name. `lib/*.js` of the package forwards here; see docs/migrating-v4.md.
import trestle = require('../index');

/** `express/lib/express`: the factory itself, as `require('express')`. */
export const express = trestle;
/** `express/lib/application`: the prototype of every app. */
export const application = trestle.application;
/** `express/lib/request`: the prototype of every request. */
export const request = trestle.request;
/** `express/lib/response`: the prototype of every response. */
export const response = trestle.response;
/** `express/lib/view`: the class `app.get('view')` is by default. */
export { View } from '../app/view';
