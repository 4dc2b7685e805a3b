/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The Go API serves both /api and /uploads; in development Vite proxies them so the
// refresh cookie (Path=/api/auth) stays first-party.
const apiTarget = process.env.LARDER_API ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/uploads': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    // dist/ is embedded by web/embed.go (`//go:embed all:dist`), which needs dist/.gitkeep;
    // scripts/postbuild.mjs re-creates it after Vite empties the folder.
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
