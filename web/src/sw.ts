/// <reference lib="webworker" />
// The service worker (built by vite-plugin-pwa's injectManifest from this file, with Workbox):
// - the app shell (index.html, scripts, styles, icons) is precached, so the app opens offline;
//   any in-app address opens the shell, whose pages then say plainly what needs the network;
// - recipes and their step mappings are answered from the network when there is one, else from
//   the recipes opened before (a bounded cache), else from those the cook chose to keep offline
//   (lib/offline.ts fills that cache; nothing here expires it);
// - images are served from cache first, bounded too, with the kept cache as the last resort.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import type { WorkboxPlugin } from 'workbox-core';
import { KEPT_CACHE } from './lib/offline';

declare const self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every address of the app is the shell, except the API, uploads and files of their own.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api(\/|$)/, /^\/uploads\//, /\.[a-z0-9]+$/i],
  }),
);

/** Falls back to the recipes kept offline when the network and the opened-before cache both fail. */
const keptFallback: WorkboxPlugin = {
  handlerDidError: async ({ request }) => (await caches.open(KEPT_CACHE)).match(request, { ignoreVary: true }) ?? undefined,
};

const recipe = /^\/api\/recipes\/[0-9a-f-]{36}(\/mappings)?$/i;
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && recipe.test(url.pathname),
  new NetworkFirst({
    cacheName: 'larder-recipes',
    networkTimeoutSeconds: 6, // a kitchen with one bar of signal: fall back rather than spin
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 200, purgeOnQuotaError: true }),
      keptFallback,
    ],
  }),
);

registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && url.pathname.startsWith('/uploads/'),
  new CacheFirst({
    cacheName: 'larder-images',
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 60 * 24 * 3600, purgeOnQuotaError: true }),
      keptFallback,
    ],
  }),
);

// A new version takes over at once: the shell is small and the API is the same.
self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
