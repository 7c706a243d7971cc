// crdlab playground's service worker: caches the page, its bundles and the
// engine on first load, so the playground works offline afterwards. The
// cache is named after the build (BUILD_ID, set by build.mjs): a new
// deployment installs a new service worker, which fills a new cache and
// deletes the old one.
const CACHE = 'crdlab-playground-BUILD_ID';
const ASSETS = ['./', 'index.html', 'style.css', 'main.js', 'worker.js', 'share-worker.js', 'crdlab.wasm'];

self.addEventListener('install', (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil((async () => {
    for (const k of await caches.keys()) if (k !== CACHE && k.startsWith('crdlab-playground-')) await caches.delete(k);
    await self.clients.claim();
  })());
});

// Cache first for this build's assets (they only change with the build,
// and with it the cache); the network for anything else.
self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== location.origin) return;
  ev.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(req, { ignoreSearch: true });
    if (hit) return hit;
    try {
      return await fetch(req);
    } catch (e) {
      if (req.mode === 'navigate') {
        const page = await cache.match('index.html');
        if (page) return page;
      }
      throw e;
    }
  })());
});
