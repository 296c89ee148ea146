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
