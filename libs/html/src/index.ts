/** Any value as text safe inside an element or a quoted attribute: & < > " ' become numeric character references. */
export const escapeHtml = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The same function as an ES module, for a page's script to import from the server that serves
 * the page (`import { escapeHtml } from '/console/assets/escape-html.js'`): browsers run the very
 * code the servers do.
 */
export const ESCAPE_HTML_MODULE = `export const escapeHtml = ${escapeHtml.toString()};\n`;
