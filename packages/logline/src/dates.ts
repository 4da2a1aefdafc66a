// The three layouts of the :date token. The CLF and web strings only change
// once a second, so each is kept with the second it was built for; under load
// most lines reuse the string instead of formatting a Date again. ISO 8601
// has milliseconds: its whole-second part is kept the same way and the
// milliseconds appended (toISOString on every line was 6% of a logged
// request in the json format).

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** `10/Oct/2000:13:55:36 +0000`, always in UTC. */
function formatClf(date: Date): string {
  return (
    pad2(date.getUTCDate()) + '/' + MONTHS[date.getUTCMonth()] + '/' + date.getUTCFullYear() +
    ':' + pad2(date.getUTCHours()) + ':' + pad2(date.getUTCMinutes()) + ':' + pad2(date.getUTCSeconds()) +
    ' +0000'
  );
}

function formatWeb(date: Date): string {
  return date.toUTCString();
}

/** `2000-10-10T13:55:36.` : toISOString up to its milliseconds. */
function formatIsoSecond(date: Date): string {
  const iso = date.toISOString();
  return iso.slice(0, iso.length - 4);
}

function pad3(n: number): string {
  return n < 10 ? '00' + n : n < 100 ? '0' + n : String(n);
}

/** A per-second cache for one whole-second layout. */
class SecondCache {
  private second = NaN;
  private text = '';

  constructor(private readonly layout: (date: Date) => string) {}

  at(ms: number): string {
    const second = Math.floor(ms / 1000);
    if (second !== this.second) {
      this.second = second;
      this.text = this.layout(new Date(ms));
    }
    return this.text;
  }
}

const clf = new SecondCache(formatClf);
const web = new SecondCache(formatWeb);
const isoSecond = new SecondCache(formatIsoSecond);

/**
 * The current time in the named layout (`clf`, `iso` or `web`, default
 * `web`), or undefined for an unknown layout so that it shows as `-`.
 */
export function currentDate(layout: string | undefined): string | undefined {
  const now = Date.now();
  switch (layout === undefined ? 'web' : layout) {
    case 'clf':
      return clf.at(now);
    case 'iso':
      return isoSecond.at(now) + pad3(now % 1000) + 'Z';
    case 'web':
      return web.at(now);
    default:
      return undefined;
  }
}
