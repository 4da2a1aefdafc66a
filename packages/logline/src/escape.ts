// What a client sends must not be able to write a second log line, close a
// quoted field early or drive the terminal that shows the log. So every token
// value is escaped before it joins a line, the way morgan writes it (lines
// stay byte-identical to morgan's): `\n`, `\r`, `\t`, `\b`, `\f`, `\"` and
// `\\`, and `\u00XX` for the other C0 controls, DEL and the C1 controls
// (0x9b is a one-byte CSI that terminals obey), and `\u2028`/`\u2029` (line
// separators to JavaScript and to some viewers).
//
// `"` and `\` are escaped everywhere, not only inside the quoted fields of
// combined/common: a value does not know where the format puts it.
//
// Cost: values are almost always clean, so the common case is one test of a
// precompiled regex, and the string is returned as it is. Only a value that
// needs it is rebuilt.

// The same class twice: `test` must not carry a `lastIndex` from one value to
// the next, and `replace` needs the global flag.
const UNSAFE = /[\x00-\x1f"\\\x7f-\x9f\u2028\u2029]/;
const UNSAFE_ALL = /[\x00-\x1f"\\\x7f-\x9f\u2028\u2029]/g;

// The output side of JSON.stringify already escapes C0, `"` and `\`; these are
// the characters it leaves raw.
const JSON_UNSAFE = /[\x7f-\x9f\u2028\u2029]/;
const JSON_UNSAFE_ALL = /[\x7f-\x9f\u2028\u2029]/g;

const SHORT_FORMS: Readonly<Record<string, string>> = {
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\f': '\\f',
  '\r': '\\r',
  '"': '\\"',
  '\\': '\\\\',
};

function escapeChar(char: string): string {
  return SHORT_FORMS[char] ?? '\\u' + char.charCodeAt(0).toString(16).padStart(4, '0');
}

/** The text as it may stand in a log line: unchanged unless it holds an unsafe character. */
export function escapeText(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, escapeChar) : text;
}

/**
 * JSON.stringify's output with DEL, C1 and U+2028/U+2029 escaped too: still
 * the same JSON value, but nothing a terminal would obey. Those characters
 * can only stand inside strings there, so `\uXXXX` is always valid.
 */
export function escapeJson(json: string): string {
  return JSON_UNSAFE.test(json) ? json.replace(JSON_UNSAFE_ALL, escapeChar) : json;
}
