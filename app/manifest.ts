import type { MetadataRoute } from 'next';

/** The web app manifest (/manifest.webmanifest): Multiverbe installs from the browser as an app of its own. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    id: '/',
    name: 'Multiverbe',
    short_name: 'Multiverbe',
    description: 'The agentic workspace for small businesses.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#faf7f2',
    theme_color: '#faf7f2',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
    ],
  };
}
