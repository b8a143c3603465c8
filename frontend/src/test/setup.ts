import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach } from "vitest";
import { installFakeWebSocket } from "./fakeWebSocket";
import { installTestTimers } from "./queryClient";

// findBy*/waitFor wait up to 5 s instead of 1 s: a lazily loaded chart chunk took longer than
// a second once while tsc ran on the other core (the fast tier runs both at once).
configure({ asyncUtilTimeout: 5000 });

// TanStack Query's polls on the timers the tests fake (see queryClient.tsx).
installTestTimers();

// Pages open live sockets: give every test a fake one (never connected unless a test opens it).
beforeEach(() => {
  installFakeWebSocket();
});

afterEach(() => {
  cleanup();
});
