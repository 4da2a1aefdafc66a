// Files as Express 3 sent them: send 0.13, whose mime 1.3 gave a charset to
// `text/*` types alone (`application/json` and `application/javascript`
// without one, where send 0.19 adds `; charset=UTF-8`), in res.sendfile,
// res.download and the static middleware; and a lower-case `sendfile` that
// reads no `options.headers`. Otherwise Express 4's.
import { typeUnlessSet } from '../../response/files';
import { loadSendV0, makeSendfile, staticV4, v4FileParts } from '../v4/files';

/** Types a file by mime 1.x's table, with a charset for text as mime 1.3 gave one. */
const typeFileV3 = typeUnlessSet((path) => {
  const type = loadSendV0().mime.lookup(path);
  return type.startsWith('text/') ? `${type}; charset=UTF-8` : type;
});

/** Express 3's res.download (by its sendfile; the later sendFile API keeps Express 4's types). */
export const downloadV3 = v4FileParts(typeFileV3).download;

/** Express 3's `res.sendfile`. */
export const sendfileV3 = makeSendfile(false, typeFileV3);

/** `trestle.static` as Connect 2 served files. */
export function staticV3(): PropertyDescriptor {
  return staticV4(typeFileV3);
}
