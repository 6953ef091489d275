#!/usr/bin/env node
// A random bot in JavaScript, speaking protocol v1 (JSON lines on stdin/stdout).
// Deterministic: a small seeded generator (mulberry32) per game, seeded from `start`.
// Run it with: node bots/js/random.mjs
import { createInterface } from "node:readline";

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const games = new Map(); // game id -> random generator
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const lines = createInterface({ input: process.stdin });

lines.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "ready", name: "js-random", version: "1" });
      break;
    case "start":
      games.set(message.game, mulberry32(message.seed));
      break;
    case "act": {
      const next = games.get(message.game);
      const index = Math.floor(next() * message.legal.length);
      send({ type: "action", index, step: message.step });
      break;
    }
    case "end":
      games.delete(message.game);
      break;
    case "bye":
      lines.close();
      break;
    default: // "substituted" and future messages need no answer
  }
});
