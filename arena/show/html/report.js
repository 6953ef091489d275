// The report's own behaviour: sortable tables and the games list that opens a viewer.
"use strict";

function sortTable(table, column) {
  const header = table.tHead.rows[0].cells[column];
  const ascending = header.getAttribute("aria-sort") !== "ascending";
  for (const cell of table.tHead.rows[0].cells) cell.removeAttribute("aria-sort");
  header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const key = (row) => {
    const cell = row.cells[column];
    const raw = cell.dataset.value ?? cell.textContent;
    const number = Number(raw);
    return Number.isNaN(number) || raw.trim() === "" ? raw : number;
  };
  rows.sort((a, b) => {
    const x = key(a), y = key(b);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return ascending ? order : -order;
  });
  body.append(...rows);
}

for (const table of document.querySelectorAll("table.sortable")) {
  Array.from(table.tHead.rows[0].cells).forEach((cell, i) => {
    cell.addEventListener("click", () => sortTable(table, i));
  });
}

// marks the games list's row of the game the viewer shows
function markGame(id) {
  for (const button of document.querySelectorAll("button.pick")) {
    const row = button.closest("tr");
    if (button.dataset.game === id) row.setAttribute("aria-current", "true");
    else row.removeAttribute("aria-current");
  }
}

const pane = document.getElementById("viewer");
if (pane) markGame(pane.dataset.first);
for (const button of document.querySelectorAll("button.pick")) {
  button.addEventListener("click", () => {
    openGame(button.dataset.game, pane);
    markGame(button.dataset.game);
    pane.scrollIntoView();
    pane.focus({ preventScroll: true }); // the arrow keys step the game just opened
  });
}
