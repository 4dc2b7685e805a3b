/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';

// The Go API serves both /api and /uploads; in development Vite proxies them so the
// refresh cookie (Path=/api/auth) stays first-party.
const apiTarget = process.env.LARDER_API ?? 'http://localhost:8080';

export default defineConfig(({ mode }) => ({
  plugins: [
    // The client is written against React's API and rendered by Preact (preact/compat): the same
    // components, with a first load half the size and half the script work (60 KB of JavaScript
    // instead of 118 KB gzip on the recipe page, Lighthouse's most costly part on a phone).
    // The preset aliases react and react-dom to preact/compat in builds, tests and the dev server.
    preact(),
    // An installable app that opens offline: the manifest, and the service worker of src/sw.ts
    // (Workbox) with the built shell precached. Registration is a script file, not inline, so the
    // page keeps working under a Content-Security-Policy without 'unsafe-inline'.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'autoUpdate',
      injectRegister: 'script-defer',
      manifest: {
        name: 'Larder',
        short_name: 'Larder',
        description: 'Your recipes and cookbooks, in the kitchen too.',
        start_url: '/recipes',
        scope: '/',
        display: 'standalone',
        background_color: '#fbf8f3',
        theme_color: '#b4532a',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
      },
      devOptions: { enabled: false },
    }),
  ],
  resolve: {
    // react-router's package exports name only its development build (dev warnings and checks
    // on every navigation and render); its production build sits beside it, unexported
    // (remix-run/react-router#12532, #14102). A production build of the client takes that one.
    // Tests take the development build's ES module: Node would otherwise load its CommonJS file,
    // whose require('react') bypasses the Preact alias.
    alias: [
      {
        find: /^react-router$/,
        replacement: fileURLToPath(
          new URL(`./node_modules/react-router/dist/${mode === 'production' ? 'production' : 'development'}/index.mjs`, import.meta.url),
        ),
      },
    ],
  },
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
    // Run react-router through Vite so that its imports of react take the Preact alias, as in the build.
    server: { deps: { inline: [/react-router/] } },
  },
}));
