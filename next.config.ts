import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ['@electric-sql/pglite', '@node-rs/argon2', '@anthropic-ai/claude-agent-sdk'],
  // The Claude Agent SDK (~450 MB with its CLI) is an optional local install for the bridge and
  // self-hosted servers; it must never be traced into serverless bundles.
  outputFileTracingExcludes: { '*': ['node_modules/@anthropic-ai/claude-agent-sdk*/**'] },
  poweredByHeader: false,
};

export default nextConfig;
