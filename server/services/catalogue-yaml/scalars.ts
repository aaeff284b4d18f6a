/**
 * YAML scalars in the forms the export writes (export.ts), which the reader's
 * fast path (read.ts) also recognises: one definition, so what the export
 * writes plain is exactly what the fast path reads without the YAML parser.
 */

/** Characters YAML cannot hold in a plain or single-quoted scalar (control, non-printable, line breaks, BOM). */
export const NEEDS_ESCAPES = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Strings a YAML 1.1 or 1.2 reader would take for something other than a string (or that start with an indicator). */
const NOT_PLAIN = /^(?:$|[-?:,[\]{}#&*!|>'"%@`\s.]|\+?\d|[-+]?\.(?:inf|nan)\b|(?:y|n|yes|no|on|off|true|false|null|~|<<|=)$)|[\s:]$|:\s|\s#|\t/i;

/**
 * One string as a YAML scalar: plain when that is unambiguous for any YAML reader
 * (1.1 or 1.2), else single-quoted, or double-quoted with escapes when it holds
 * characters that must be escaped. Deliberately conservative: quoting more often
 * than needed is harmless, a plain scalar read back as a number or a boolean is not.
 */
export function yamlScalar(s: string): string {
  if (NEEDS_ESCAPES.test(s)) return JSON.stringify(s).replace(/[\u2028\u2029\u007f-\u009f\ufeff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (NOT_PLAIN.test(s)) return `'${s.replaceAll("'", "''")}'`;
  return s;
}
