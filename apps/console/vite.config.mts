import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// The admin console: built into dist/console, served by the management process under /console/ (docs/console.md).
export default defineConfig({
  root,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/console', import.meta.url)),
    emptyOutDir: true,
    // No inline script or style: the Content-Security-Policy allows only 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 800,
  },
  logLevel: 'warn',
});
