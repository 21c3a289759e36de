import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ['@electric-sql/pglite', '@node-rs/argon2', '@anthropic-ai/claude-agent-sdk'],
  poweredByHeader: false,
};

export default nextConfig;
