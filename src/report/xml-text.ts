/**
 * Text made safe for XML 1.0: characters the XML 1.0 `Char` production forbids (NUL and
 * other C0 controls except tab, newline and carriage return; lone surrogates; U+FFFE and
 * U+FFFF) are removed. Source: XML 1.0 (Fifth Edition) §2.2.
 */

// With the `u` flag a lone surrogate is one code point outside every allowed range.
const ILLEGAL_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Removes every character that XML 1.0 does not allow, keeping everything else as is.
 * Escaping of `<`, `&` and quotes is left to the XML builder.
 * @example
 * xmlSafe('a\u0000b\uD800c'); // 'abc'
 */
export function xmlSafe(text: string): string {
  return text.replace(ILLEGAL_XML_CHARS, '');
}

/** {@link xmlSafe}, then tabs, newlines and carriage returns as spaces: attribute values are normalised that way by every parser anyway. */
export function xmlSafeLine(text: string): string {
  return xmlSafe(text).replace(/[\t\n\r]+/g, ' ');
}

// C0 controls but tab, newline, form feed and carriage return; DEL and the C1 controls; lone surrogates; U+FFFE, U+FFFF.
const NOT_IN_HTML = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

/**
 * Text made safe for an HTML document with inline SVG: NUL, the other C0 and the C1 control
 * characters, DEL, lone surrogates, U+FFFE and U+FFFF each become U+FFFD, so the reader sees
 * that something was there (HTML parsers flag or drop them, and an XML parser of the SVG refuses
 * the file). Applied to the whole of report.html, so every text that reaches it (entry text, a
 * guard's signal and layer names, reasons) is covered, charts included.
 * Source: HTML Living Standard §13.2.3.5 (preprocessing the input stream), XML 1.0 §2.2.
 * @example htmlSafe('s\u0000nul') // 's\uFFFDnul'
 */
export function htmlSafe(text: string): string {
  return text.replace(NOT_IN_HTML, '\uFFFD');
}
