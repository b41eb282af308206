import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { serviceWorker } from './serviceWorkerPlugin.ts';

// The built site is served by apps/server under a strict Content-Security-Policy (script-src 'self'):
// no inline scripts, no CDNs, no external fonts. In development, /v1 goes to a locally running server.
export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    serviceWorker({
      entry: 'src/sw/serviceWorker.ts',
      routes: ['src/routes/dashboard/DashboardPage.tsx', 'src/routes/dashboard/ObserverDashboardPage.tsx'],
    }),
  ],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // Keep every asset a file under dist/assets: nothing relies on data: URLs for scripts.
    assetsInlineLimit: 0,
  },
  server: {
    proxy: {
      '/v1': { target: 'http://127.0.0.1:8080' },
    },
  },
});
