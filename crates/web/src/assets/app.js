// wily's dashboard: the live state of every account over Server-Sent Events, the rest
// polled. Read-only.
"use strict";
const $ = (id) => document.getElementById(id);
const GLYPH = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
                k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };
let accounts = [];
let lastGames = -1;

function text(el, s) { el.textContent = s; }
function clock(ms) {
  const neg = ms < 0; ms = Math.abs(ms);
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  return (neg ? "-" : "") + m + ":" + String(s % 60).padStart(2, "0");
}
function since(unix) {
  let s = Math.max(0, Math.floor(Date.now() / 1000) - unix);
  const d = Math.floor(s / 86400); s %= 86400;
  const h = Math.floor(s / 3600); s %= 3600;
  return (d ? d + "d " : "") + h + "h " + Math.floor(s / 60) + "m";
}
function stamp(unix) { return new Date(unix * 1000).toISOString().replace("T", " ").slice(0, 19); }
function label(s, i) { return s.handle || "account " + (i + 1); }
// The card of the i-th account, made from the template the first time.
function card(i) {
  const box = $("accounts");
  while (box.children.length <= i) {
    box.appendChild($("account-card").content.firstElementChild.cloneNode(true));
  }
  return box.children[i];
}
function drawBoard(el, g) {
  const board = el.querySelector(".board");
  board.replaceChildren();
  const flip = g.wily_color === "black";
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const rr = flip ? 7 - r : r, ff = flip ? 7 - f : f;
      const c = g.board[rr][ff];
      const sq = document.createElement("div");
      sq.className = "sq " + ((rr + ff) % 2 === 0 ? "l" : "d");
      sq.dataset.square = "abcdefgh"[ff] + (8 - rr);
      if (c !== ".") { sq.textContent = GLYPH[c]; sq.dataset.piece = c; }
      board.appendChild(sq);
    }
  }
  board.dataset.fen = g.fen;
}
function drawGame(el, s) {
  const g = s.game, q = (c) => el.querySelector(c);
  q(".nogame").hidden = !!g;
  q(".game").hidden = !g;
  if (!g) return;
  drawBoard(el, g);
  const top = g.wily_color === "black" ? "white" : "black";
  const bottom = top === "white" ? "black" : "white";
  const name = (c) => g[c] + (g[c + "_elo"] ? " (" + g[c + "_elo"] + ")" : "");
  text(q(".top-name"), name(top));
  text(q(".bottom-name"), name(bottom));
  text(q(".top-clock"), clock(g[top + "_ms"]));
  text(q(".bottom-clock"), clock(g[bottom + "_ms"]));
  text(q(".gameinfo"), "Game " + g.number + ": " + (g.rated ? "rated " : "unrated ") + g.category + " " +
       g.base + " " + g.increment + "; opponent " + g.opponent + " [" + g.opponent_list + "]; " +
       g.to_move + " to move");
  text(q(".thinking"), g.score ? s.handle + ": " + g.score + " depth " + g.depth + "\n" + (g.pv || "") : "");
  const moves = q(".moves");
  moves.replaceChildren();
  for (let i = 0; i < g.moves.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = g.moves[i] + (g.moves[i + 1] ? " " + g.moves[i + 1] : "");
    moves.appendChild(li);
  }
  moves.dataset.plies = g.moves.length;
}
function drawAccount(s, i) {
  const el = card(i), q = (c) => el.querySelector(c);
  el.dataset.account = s.handle;
  text(q(".handle"), label(s, i));
  const conn = q(".conn");
  conn.className = "pill conn " + (s.connected ? "on" : "off");
  text(conn, s.connected ? "online" : "offline");
  text(q(".site"), s.site ? "on " + s.site : "");
  drawGame(el, s);
  text(q(".totals"), "games " + s.games + " (+" + s.wins + " =" + s.draws + " -" + s.losses + "), declined " +
       s.declined + "; seeking " + (s.seeking ? "on" : "off") + ", accepting " + (s.accepting ? "on" : "off") +
       (s.quitting ? "; stopping after this game" : ""));
  const obs = q(".observed");
  obs.replaceChildren();
  for (const o of s.observed || []) {
    const li = document.createElement("li");
    li.dataset.game = o.number;
    li.textContent = "observing " + o.number + ": " + o.white + " vs " + o.black + " [" + o.source +
      (o.event ? ", " + o.event : "") + ", score " + o.score + "], " + o.plies + " plies, " +
      o.talked + " said" + (o.analysis ? "; " + o.analysis : "");
    obs.appendChild(li);
  }
}
function drawHistory() {
  const box = $("history");
  box.replaceChildren();
  accounts.forEach((s, i) => {
    const div = document.createElement("div");
    div.className = "account-history";
    div.dataset.account = s.handle;
    const h = document.createElement("h3");
    const reconnects = Math.max(0, s.connections.filter((e) => e.what === "connected").length - 1);
    text(h, label(s, i) + ": " + reconnects + " reconnect" + (reconnects === 1 ? "" : "s"));
    const ul = document.createElement("ul");
    for (const e of s.connections.slice().reverse()) {
      const li = document.createElement("li");
      li.textContent = stamp(e.unix) + " " + e.what;
      ul.appendChild(li);
    }
    div.append(h, ul);
    box.appendChild(div);
  });
}
function drawStatus(snap) {
  accounts = snap.accounts;
  const online = accounts.filter((s) => s.connected).length;
  const conn = $("conn");
  conn.className = "pill " + (online === accounts.length ? "on" : online ? "" : "off");
  text(conn, online + "/" + accounts.length + " online");
  text($("who"), accounts.map(label).join(", "));
  accounts.forEach(drawAccount);
  drawHistory();
  tick();
  const games = accounts.reduce((n, s) => n + s.games, 0);
  if (games !== lastGames) { lastGames = games; refresh(); }
}
function row(tbody, cells) {
  const tr = document.createElement("tr");
  for (const c of cells) {
    const td = document.createElement("td");
    if (c instanceof Node) td.appendChild(c); else td.textContent = c;
    tr.appendChild(td);
  }
  tbody.appendChild(tr);
}
async function refresh() {
  try {
    const games = await (await fetch("/api/games")).json();
    const tb = $("recent").tBodies[0];
    tb.replaceChildren();
    for (const g of games) {
      const a = document.createElement("a");
      a.href = "/games/" + g.index + ".pgn"; a.textContent = "pgn";
      row(tb, [g.index + 1, g.account, g.date, g.white, g.black, g.result, a]);
    }
  } catch (e) { /* archive not there yet */ }
  try {
    drawRatings(await (await fetch("/api/ratings")).json());
  } catch (e) { /* no archive yet */ }
  try {
    const l = await (await fetch("/api/learning")).json();
    const tb = $("opponents").tBodies[0];
    tb.replaceChildren();
    for (const o of l.opponents) row(tb, [o.opponent, o.games, o.wins, o.draws, o.losses, o.last_rating ?? ""]);
    text($("learning"), "learning store: " + l.games + " games, " + l.book_values + " book values, " +
         l.positions + " positions, " + l.forbidden + " forbidden moves, " + l.samples + " samples");
  } catch (e) { text($("learning"), "no learning store yet"); }
}
// One line per account: its rating now and a small chart of its rated games.
function drawRatings(list) {
  const box = $("ratings");
  box.replaceChildren();
  for (const a of list) {
    const div = document.createElement("div");
    div.className = "account-rating";
    div.dataset.account = a.account;
    const p = a.points;
    const note = document.createElement("div");
    text(note, a.account + ": " + (p.length ? p[p.length - 1].rating + " (" + p.length + " rated game" +
         (p.length === 1 ? "" : "s") + (p.length > 1 ? ", from " + p[0].rating : "") + ")" : "no rated games yet"));
    div.appendChild(note);
    if (p.length >= 2) {
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("viewBox", "0 0 600 80"); svg.setAttribute("preserveAspectRatio", "none");
      const lo = Math.min(...p.map((x) => x.rating)) - 10, hi = Math.max(...p.map((x) => x.rating)) + 10;
      const xy = p.map((x, i) => (i * 600 / (p.length - 1)).toFixed(1) + "," +
        (75 - (x.rating - lo) * 70 / (hi - lo)).toFixed(1));
      const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
      line.setAttribute("points", xy.join(" "));
      line.setAttribute("fill", "none"); line.setAttribute("stroke", "#2f6b2f"); line.setAttribute("stroke-width", "2");
      svg.appendChild(line);
      div.appendChild(svg);
    }
    box.appendChild(div);
  }
}
function connect() {
  const es = new EventSource("/api/events");
  es.onmessage = (ev) => drawStatus(JSON.parse(ev.data));
  es.onerror = () => { const c = $("conn"); c.className = "pill off"; text(c, "dashboard link lost"); };
}
function tick() {
  const started = accounts.map((s) => s.started_unix).filter((t) => t > 0);
  if (started.length) text($("uptime"), "up " + since(Math.min(...started)));
}
setInterval(tick, 1000);
connect();
