// The game viewer: steps through one stored game (buttons, arrow keys, slider) and toggles
// between the whole table and one seat's view. For each move: what it was, who made it and
// in how long, the bot's note and the faults of that move. Game data is gzip + base64 JSON,
// unpacked with the browser's own DecompressionStream (no library, no network). Each
// picture comes as a list of indexes into the game's pieces, joined by SEAM when shown.
"use strict";

const SEAM = "<rect"; // arena/show/html/viewer.py cuts pictures there

async function unpackGame(text) {
  const bytes = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// "game t0-b0-r1: random (seat 0) vs greedy (seat 1)": which game a report's viewer shows
// (the id in a span that a narrow screen does not break at its hyphens)
function gameTitle(game) {
  const seats = game.seats.map((seat, i) => `${seat.bot} (seat ${i})`);
  const title = el("h3", { class: "title" }, "game ");
  title.append(el("span", { class: "id" }, game.id), `: ${seats.join(" vs ")}`);
  return title;
}

class Viewer {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.last = game.steps.length - 1;
    this.pos = 0;
    this.seat = -1;
    this.alone = root.dataset.alone !== undefined; // its own page (arena view), not the report
    root.tabIndex = -1; // focusable, so that focus can leave the menu for the viewer
    root.replaceChildren();
    if (!this.alone) root.append(gameTitle(game)); // the report's
    const controls = el("div", { class: "controls" });
    const buttons = [["first", "|◀ first"], ["prev", "◀ back"], ["next", "next ▶"], ["last", "last ▶|"]];
    for (const [act, label] of buttons) {
      const button = el("button", { "data-act": act, type: "button" }, label);
      button.addEventListener("click", () => this.go(act));
      controls.append(button);
    }
    this.slider = el("input", { type: "range", min: "0", max: String(this.last), value: "0" });
    this.slider.setAttribute("aria-label", "step");
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    this.counter = el("span", { class: "pos" });
    this.select = el("select", { class: "view", "aria-label": "view" });
    this.select.append(el("option", { value: "-1" }, "whole table"));
    game.seats.forEach((seat, i) => {
      this.select.append(el("option", { value: String(i) }, `seat ${i} (${seat.bot}) sees`));
    });
    this.select.addEventListener("change", () => {
      this.seat = Number(this.select.value);
      this.show(this.pos);
      this.root.focus({ preventScroll: true }); // the arrow keys step again, not pick a seat
    });
    controls.append(this.slider, this.counter, this.select);
    this.move = el("div", { class: "move" });
    this.board = el("div", { class: "board" });
    this.result = el("div", { class: "result" });
    this.obs = el("details", { class: "obs" });
    this.obsTitle = el("summary");
    this.obsBody = el("pre");
    this.obs.append(this.obsTitle, this.obsBody);
    root.append(controls, this.move, this.board, this.result, this.obs);
    this.show(0);
  }

  go(act) {
    const target = { first: 0, prev: this.pos - 1, next: this.pos + 1, last: this.last }[act];
    this.show(Math.max(0, Math.min(this.last, target)));
  }

  key(event) {
    const acts = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    const act = acts[event.key];
    const modified = event.altKey || event.ctrlKey || event.metaKey || event.shiftKey;
    if (!act || modified || event.target instanceof HTMLSelectElement || !this.hasKeys()) return;
    event.preventDefault();
    this.go(act);
  }

  // Whether the keys are the viewer's: on its own page always; in the report while the focus
  // is in the viewer, or on nothing and at least half of the viewer (or of the window) shows
  hasKeys() {
    const focus = document.activeElement;
    if (this.alone || this.root.contains(focus)) return true;
    if (focus && focus !== document.body) return false;
    const box = this.root.getBoundingClientRect();
    const shown = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
    return shown >= Math.min(box.height, window.innerHeight) / 2;
  }

  show(pos) {
    const game = this.game;
    const step = game.steps[pos];
    this.pos = pos;
    this.slider.value = String(pos);
    this.counter.textContent = `step ${pos} of ${this.last}`;
    this.move.replaceChildren();
    if (pos === 0) {
      this.move.append(el("span", {}, "The deal, before the first move."));
    } else {
      const made = game.steps[pos - 1];
      // the move as the table saw it; another seat's view tells only what that seat saw of it
      const told = this.seat < 0 || this.seat === made.t || !made.s ? made.m : made.s[this.seat];
      this.move.append(el("div", {}, `Move ${pos}: ${told}`));
      this.move.append(el("div", { class: "muted by" }, made.by));
      // a bot's note may name its hidden cards: only the whole table and its own seat see it
      if (made.n !== undefined && (this.seat < 0 || this.seat === made.t)) {
        this.move.append(el("div", { class: "note" }, `note from seat ${made.t}: ${made.n}`));
      }
      for (const fault of made.f || []) this.move.append(el("div", { class: "fault" }, fault));
    }
    for (const fault of step.x || []) this.move.append(el("div", { class: "fault" }, fault));
    const picture = this.seat < 0 ? step.full : step.seats[this.seat];
    this.board.innerHTML = game.pictures[picture].map((k) => game.pieces[k]).join(SEAM);
    const final = pos === this.last;
    this.result.hidden = !final;
    this.result.textContent = final ? game.result : "";
    this.showObservation(pos);
  }

  showObservation(pos) {
    if (this.seat < 0) {
      this.obs.hidden = true;
      this.obsBody.textContent = "";
      return;
    }
    this.obs.hidden = false;
    let found = -1;
    for (let i = pos; i >= 0; i--) {
      if (this.game.steps[i].t === this.seat) { found = i; break; }
    }
    if (found < 0) {
      this.obsTitle.textContent = `seat ${this.seat} has not been asked to act yet`;
      this.obsBody.textContent = "";
    } else {
      this.obsTitle.textContent =
        `the observation seat ${this.seat} received at step ${found} (exactly what the bot got)`;
      this.obsBody.textContent = JSON.stringify(this.game.steps[found].o, null, 2);
    }
  }
}

let activeViewer = null;
document.addEventListener("keydown", (event) => { if (activeViewer) activeViewer.key(event); });

async function openGame(id, root) {
  const data = document.getElementById(`game-${id}`);
  activeViewer = new Viewer(root, await unpackGame(data.textContent));
  root.dataset.ready = id;
}

const firstPane = document.getElementById("viewer");
if (firstPane && firstPane.dataset.first) openGame(firstPane.dataset.first, firstPane);
