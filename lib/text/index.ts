/**
 * `text` in ASCII lower case for names that allow nothing else (file names, MCP tool names): accents
 * dropped ("Zoë" → "zoe"), every other run of characters one `separator`, at most `maxLength` long;
 * `fallback` when nothing is left.
 */
export function asciiSlug(text: string, { separator, maxLength, fallback }: { separator: '-' | '_'; maxLength: number; fallback: string }): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .replace(/^[-_]+/, '')
    .slice(0, maxLength)
    .replace(/[-_]+$/, '');
  return slug || fallback;
}

/** An image source a card or an artifact may show: an https URL or an inline PNG, JPEG, GIF or WebP. */
export function isSafeImageUrl(value: string): boolean {
  return /^https:\/\/[^\s]+$/i.test(value) || /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(value);
}
