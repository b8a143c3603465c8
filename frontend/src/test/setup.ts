import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach } from "vitest";
import { installFakeWebSocket } from "./fakeWebSocket";
import { installTestTimers } from "./queryClient";

// TanStack Query's polls on the timers the tests fake (see queryClient.tsx).
installTestTimers();

// Pages open live sockets: give every test a fake one (never connected unless a test opens it).
beforeEach(() => {
  installFakeWebSocket();
});

afterEach(() => {
  cleanup();
});
