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
  const noMoves = document.getElementById("no-moves");
  const status = document.getElementById("status");
  const position = document.getElementById("position");
  const said = document.getElementById("position-said");
  const live = document.getElementById("live");
  const seed = document.getElementById("seed");
  const files = document.getElementById("files");
  // The boards after each number of actions, of the game as it is now (a takeback changes
  // the version, and the boards past it).
  let frames = new Map();
  let latest = Number(step.max);
  let version = body.dataset.version;
  // The latest position in words: the board's description while it shows that position.
  let words = said.textContent;
  frames.set(latest, board.innerHTML);

  function mark(n) {
    for (const item of moves.querySelectorAll("li[data-seq]")) {
      if (Number(item.dataset.seq) === n) {
        item.setAttribute("aria-current", "step");
        // The list scrolls to it; the page stays where it is.
        const top = item.offsetTop - moves.offsetTop;
        if (top < moves.scrollTop || top + item.offsetHeight > moves.scrollTop + moves.clientHeight) {
          moves.scrollTop = top - moves.clientHeight / 2;
        }
      } else {
        item.removeAttribute("aria-current");
      }
    }
    at.textContent = n + " / " + latest;
    const move = moves.querySelector('li[data-seq="' + n + '"]');
    const where = n + " / " + latest + (move ? ": " + move.textContent : "");
    step.setAttribute("aria-valuetext", where);
    // An earlier position is described by the move that led to it.
    said.textContent = n === latest ? words : where;
  }

  async function show(n) {
    mark(n);
    if (!frames.has(n)) {
      const asked = version;
      try {
        const answer = await fetch(token + "/at/" + n + "?v=" + encodeURIComponent(asked));
        if (!answer.ok) return;
        const svg = await answer.text();
        if (asked === version) frames.set(n, svg);
      } catch (error) {
        return;
      }
    }
    if (Number(step.value) === n && frames.has(n)) board.innerHTML = frames.get(n);
  }

  // The slider asks for a board once it rests (not for every position it passes).
  let resting = 0;
  step.addEventListener("input", () => {
    clearTimeout(resting);
    const n = Number(step.value);
    mark(n);
    resting = setTimeout(() => show(n), 60);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target === step || event.altKey || event.ctrlKey || event.metaKey) return;
    let n = Number(step.value);
    if (event.key === "ArrowLeft") n -= 1;
    else if (event.key === "ArrowRight") n += 1;
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
    noMoves.hidden = list.length > 0;
  }

  function follow(state) {
    const following = Number(step.value) >= latest;
    if (state.version !== version) {
      version = state.version;
      frames = new Map();
    }
    latest = state.seq;
    frames.set(latest, state.board);
    step.max = String(latest);
    status.textContent = state.status;
    position.textContent = state.position;
    words = state.words.split("\n").join("; ");
    listMoves(state.moves);
    if (seed && state.seed) seed.textContent = state.seed;
    if (files && !state.active) files.hidden = false;
    body.dataset.seq = String(latest);
    if (following || Number(step.value) > latest) step.value = String(latest);
    show(Number(step.value));
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
