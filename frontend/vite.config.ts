import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// Django serves the built assets under /static/ and dist/index.html for every
// non-API path, so client-side routes survive a reload.
export default defineConfig(({ command }) => ({
  // Built assets live under /static/ (Django); the dev server serves from /.
  base: command === "build" ? "/static/" : "/",
  plugins: [react()],
  build: {
    outDir: "dist",
    assetsDir: "assets",
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      output: {
        // Libraries change less often than the app: their own files stay cached across
        // releases, and no file passes Vite's 500 kB warning.
        manualChunks(id: string) {
          if (!id.includes("node_modules")) return undefined;
          if (/node_modules\/(recharts|d3-|victory-vendor|decimal\.js)/.test(id)) return "charts";
          if (/node_modules\/(@rjsf|ajv)/.test(id)) return "forms";
          return "vendor";
        },
      },
    },
  },
  server: {
    // `npm run dev` against a local Django (python manage.py runserver 8000):
    // the API, login/logout and the admin go to Django, the rest to Vite.
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
      "/login": "http://127.0.0.1:8000",
      "/logout": "http://127.0.0.1:8000",
      "/admin": "http://127.0.0.1:8000",
    },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    // One environment for all test files, not a fresh jsdom per file: 57 s instead of 200 s
    // here (jsdom's set-up was most of it). The tests leave no state behind: mocks are
    // restored and stubbed globals undone after each test (below), and each renders afresh.
    isolate: false,
    // A hang guard, not a speed check: bin/test runs these beside the Python tests and the
    // dev stack's start on two cores, where a page with charts took 5.1 s once (the default
    // limit is 5 s).
    testTimeout: 30_000,
    restoreMocks: true,
    unstubGlobals: true,
    // styles.test.ts reads the stylesheet (?raw): CSS is not emptied for it.
    css: { include: [/styles\.css/] },
  },
}));
