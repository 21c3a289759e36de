/**
 * How an HTML artifact is shown: inside `<iframe sandbox="allow-scripts" srcdoc=…>`. Without
 * `allow-same-origin` the page runs in an opaque origin: its scripts cannot read the app's DOM,
 * cookies or storage, nor call the API as the viewer. The Content-Security-Policy put first in its
 * <head> also stops it from loading or sending anything over the network (no fetch, no forms, no
 * remote scripts), so a page can only draw itself. A policy declared later in the page can only
 * narrow this one, never widen it. Client-safe.
 */

export const HTML_SANDBOX = 'allow-scripts';

export const HTML_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
  'media-src data: blob:',
  "connect-src 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "base-uri 'none'",
].join('; ');

/** The document for `srcdoc`: the policy first, then the artifact's own markup. */
export function sandboxedSrcdoc(html: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${HTML_CSP}"><meta name="viewport" content="width=device-width, initial-scale=1"></head><body>${html}</body></html>`;
}
