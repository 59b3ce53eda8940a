// A game's page (issue 41): step through the game with the slider or the arrow keys, and
// follow it live through server-sent events (the stream starts with the current state, and the
// browser reconnects by itself). No framework: the page is whole without this script.
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
    listMoves(state.moves);
    if (seed && state.seed) seed.textContent = state.seed;
    body.dataset.seq = String(latest);
    if (following) {
      step.value = String(latest);
      board.innerHTML = state.board;
    }
    mark(Number(step.value));
  }

  mark(latest);
  if (body.dataset.active === "true" && "EventSource" in window) {
    const events = new EventSource(token + "/events");
    events.addEventListener("state", (event) => follow(JSON.parse(event.data)));
    events.addEventListener("open", () => {
      live.classList.remove("offline");
      live.textContent = live.dataset.live;
    });
    events.addEventListener("error", () => {
      live.classList.add("offline");
      live.textContent = live.dataset.offline;
    });
  }
})();
