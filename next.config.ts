import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ['@electric-sql/pglite', '@node-rs/argon2', '@anthropic-ai/claude-agent-sdk'],
  // The Claude Agent SDK (~450 MB with its CLI) is an optional local install for the bridge and
  // self-hosted servers; it must never be traced into serverless bundles.
  outputFileTracingExcludes: { '*': ['node_modules/@anthropic-ai/claude-agent-sdk*/**'] },
  poweredByHeader: false,
  // The service worker is fetched fresh on every check for an update, so a deploy reaches phones at once.
  async headers() {
    return [
      {
        source: '/sw.js',
        headers: [
          { key: 'Content-Type', value: 'application/javascript; charset=utf-8' },
          { key: 'Cache-Control', value: 'no-cache, no-store, must-revalidate' },
          { key: 'Service-Worker-Allowed', value: '/' },
          { key: 'Content-Security-Policy', value: "default-src 'self'; script-src 'self'" },
        ],
      },
    ];
  },
};

export default nextConfig;
