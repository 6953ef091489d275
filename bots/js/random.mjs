#!/usr/bin/env node
// A random bot in JavaScript, speaking protocol v1 (JSON lines on stdin/stdout).
// Deterministic: a small seeded generator (mulberry32) per game, seeded from `start`.
// Run it with: node bots/js/random.mjs
//
// It also shows how a bot in any language reads an engine's static data: `hello` carries a
// `catalog` (card tables and the like, documented in each engine's README). Playing
// good-boy, the bot looks the dogs up there: it claims the dog worth the most points and
// assigns items only to dogs that need them. Everything else is a random legal action.
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
let catalog = {}; // the engine's static data, from hello

// good-boy: the catalog's dog (breed, points, needs per kind) on board `board`, if any
function dogOn(observation, board) {
  const id = observation.boards?.[board];
  return id === null || id === undefined ? undefined : catalog.dogs?.[String(id)];
}

// Indices of the legal actions worth preferring, using the catalog; [] = no preference.
function preferred(observation, legal) {
  if (!catalog.dogs) return [];
  const claims = legal
    .map((action, index) => ({ action, index }))
    .filter(({ action }) => action.type === "claim");
  if (claims.length) {
    const points = ({ action }) => dogOn(observation, action.board)?.points ?? 0;
    const best = Math.max(...claims.map(points));
    return claims.filter((claim) => points(claim) === best).map(({ index }) => index);
  }
  return legal.flatMap((action, index) => {
    if (action.type !== "assign") return [];
    const needs = dogOn(observation, action.board)?.needs ?? [];
    return needs[catalog.kinds.indexOf(action.item)] > 0 ? [index] : [];
  });
}
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const lines = createInterface({ input: process.stdin });

lines.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      catalog = message.catalog ?? {};
      send({ type: "ready", name: "js-random", version: "2" });
      break;
    case "start":
      games.set(message.game, mulberry32(message.seed));
      break;
    case "act": {
      const next = games.get(message.game);
      const choices = preferred(message.observation, message.legal);
      const index = choices.length
        ? choices[Math.floor(next() * choices.length)]
        : Math.floor(next() * message.legal.length);
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
