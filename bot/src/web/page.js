// A game's page (issue 41): step through the game with the slider or the arrow keys, and
// follow it live through server-sent events (the stream starts with the current state; the page
// reconnects for as long as it stays open). No framework: the page is whole without this script.
"use strict";
(function () {
  const body = document.body;
  const token = body.dataset.token;
  const step = document.getElementById("step");
  const at = document.getElementById("step-at");
  const board = document.getElementById("board");
  const moves = document.getElementById("moves");
  const status = document.getElementById("status");
  const position = document.getElementById("position");
  const said = document.getElementById("position-said");
  const live = document.getElementById("live");
  const seed = document.getElementById("seed");
  const frames = new Map();
  let latest = Number(step.max);
  frames.set(latest, board.innerHTML);

  function mark(n) {
    for (const item of moves.querySelectorAll("li[data-seq]")) {
      if (Number(item.dataset.seq) === n) {
        item.setAttribute("aria-current", "step");
        item.scrollIntoView({ block: "nearest" });
      } else {
        item.removeAttribute("aria-current");
      }
    }
    at.textContent = n + " / " + latest;
    step.setAttribute("aria-valuetext", n + " / " + latest);
  }

  async function show(n) {
    mark(n);
    if (!frames.has(n)) {
      const answer = await fetch(token + "/at/" + n);
      if (!answer.ok) return;
      frames.set(n, await answer.text());
    }
    if (Number(step.value) === n) board.innerHTML = frames.get(n);
  }

  step.addEventListener("input", () => show(Number(step.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target === step || event.altKey || event.ctrlKey || event.metaKey) return;
    let n = Number(step.value);
    if (event.key === "ArrowLeft") n -= 1;
    else if (event.key === "ArrowRight") n += 1;
    else if (event.key === "Home") n = 0;
    else if (event.key === "End") n = latest;
    else return;
    event.preventDefault();
    n = Math.max(0, Math.min(latest, n));
    step.value = String(n);
    show(n);
  });

  function listMoves(list) {
    moves.replaceChildren();
    for (const move of list) {
      const item = document.createElement("li");
      item.dataset.seq = String(move.seq);
      item.value = move.seq;
      item.append(move.text);
      if (move.by) {
        const by = document.createElement("span");
        by.className = "by";
        by.textContent = " — " + move.by;
        item.append(by);
      }
      moves.append(item);
    }
  }

  function follow(state) {
    const following = Number(step.value) === latest;
    latest = state.seq;
    frames.set(latest, state.board);
    step.max = String(latest);
    status.textContent = state.status;
    position.textContent = state.position;
    said.textContent = state.position;
    listMoves(state.moves);
    if (seed && state.seed) seed.textContent = state.seed;
    body.dataset.seq = String(latest);
    if (following) {
      step.value = String(latest);
      board.innerHTML = state.board;
    }
    mark(Number(step.value));
  }

  // Live. The browser reconnects by itself after a dropped connection; after an answer that
  // is not a stream (a proxy's 502 while the bot restarts) it gives up, and this tries again,
  // waiting longer each time up to a minute, and at once when the page is shown again.
  let source = null;
  let timer = 0;
  let wait = 2000;
  function offline() {
    live.classList.add("offline");
    live.textContent = live.dataset.offline;
  }
  function connect() {
    clearTimeout(timer);
    timer = 0;
    source = new EventSource(token + "/events");
    source.addEventListener("state", (event) => {
      wait = 2000;
      const state = JSON.parse(event.data);
      follow(state);
      if (!state.active) {
        // Over: nothing more will come.
        source.close();
        live.classList.remove("offline");
        live.textContent = "";
      }
    });
    source.addEventListener("open", () => {
      live.classList.remove("offline");
      live.textContent = live.dataset.live;
    });
    source.addEventListener("error", () => {
      offline();
      if (source.readyState === EventSource.CLOSED && !timer) {
        timer = setTimeout(connect, wait);
        wait = Math.min(wait * 2, 60000);
      }
    });
  }
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && source && source.readyState === EventSource.CLOSED && timer) {
      connect();
    }
  });

  mark(latest);
  if (body.dataset.active === "true" && "EventSource" in window) connect();
})();
