import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach } from "vitest";
import { installFakeWebSocket } from "./fakeWebSocket";

// Pages open live sockets: give every test a fake one (never connected unless a test opens it).
beforeEach(() => {
  installFakeWebSocket();
});

afterEach(() => {
  cleanup();
});
