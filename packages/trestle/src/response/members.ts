// The response prototype's own members, shared by every profile. Each app's
// `app.response` inherits from the profile's response object, which inherits
// from these and from node's ServerResponse. The members live beside this
// file, one concern each (headers, send, cookies, format, redirect, files,
// render), and are gathered into `responseMembers` here.
import { bodyMembers } from './send';
import { cookieMembers } from './cookies';
import { headerMembers } from './headers';
import { formatMembers } from './format';
import { redirectMembers } from './redirect';
import { renderMembers } from './render';
import { sendFileMembers } from './files';

export type { ResponseState } from './state';
export { contentTypeFor, setCharset } from './headers';
export { stringifyJson } from './send';

/** Every response member, getters included, in one object the framework mixes in. */
export const responseMembers: Record<string, unknown> = {};
for (const part of [headerMembers, bodyMembers, cookieMembers, formatMembers, redirectMembers, sendFileMembers, renderMembers]) {
  Object.defineProperties(responseMembers, Object.getOwnPropertyDescriptors(part));
}
Object.defineProperty(responseMembers, 'header', Object.getOwnPropertyDescriptor(responseMembers, 'set')!);
Object.defineProperty(responseMembers, 'contentType', Object.getOwnPropertyDescriptor(responseMembers, 'type')!);
