// wily's dashboard: the live state over Server-Sent Events, the rest polled. Read-only.
"use strict";
const $ = (id) => document.getElementById(id);
const GLYPH = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
                k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };
let status = null;
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
function drawBoard(g) {
  const board = $("board");
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
function drawGame(g) {
  $("nogame").hidden = !!g;
  $("game").hidden = !g;
  if (!g) return;
  drawBoard(g);
  const top = g.wily_color === "black" ? "white" : "black";
  const bottom = top === "white" ? "black" : "white";
  const name = (c) => g[c] + (g[c + "_elo"] ? " (" + g[c + "_elo"] + ")" : "");
  text($("black-name"), name(top));
  text($("white-name"), name(bottom));
  text($("black-clock"), clock(g[top + "_ms"]));
  text($("white-clock"), clock(g[bottom + "_ms"]));
  text($("gameinfo"), "Game " + g.number + ": " + (g.rated ? "rated " : "unrated ") + g.category + " " +
       g.base + " " + g.increment + "; opponent " + g.opponent + " [" + g.opponent_list + "]; " +
       g.to_move + " to move");
  text($("thinking"), g.score ? "wily: " + g.score + " depth " + g.depth + "\n" + (g.pv || "") : "");
  const moves = $("moves");
  moves.replaceChildren();
  for (let i = 0; i < g.moves.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = g.moves[i] + (g.moves[i + 1] ? " " + g.moves[i + 1] : "");
    moves.appendChild(li);
  }
  moves.dataset.plies = g.moves.length;
}
function drawStatus(s) {
  status = s;
  const conn = $("conn");
  conn.className = "pill " + (s.connected ? "on" : "off");
  text(conn, s.connected ? "online" : "offline");
  text($("who"), (s.handle || "?") + " on " + s.site);
  drawGame(s.game);
  text($("totals"), "games " + s.games + " (+" + s.wins + " =" + s.draws + " -" + s.losses + "), declined " +
       s.declined + "; seeking " + (s.seeking ? "on" : "off") + ", accepting " + (s.accepting ? "on" : "off") +
       (s.quitting ? "; stopping after this game" : ""));
  const h = $("history");
  h.replaceChildren();
  for (const e of s.connections.slice().reverse()) {
    const li = document.createElement("li");
    li.textContent = new Date(e.unix * 1000).toISOString().replace("T", " ").slice(0, 19) + " " + e.what;
    h.appendChild(li);
  }
  tick();
  if (s.games !== lastGames) { lastGames = s.games; refresh(); }
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
      row(tb, [g.index + 1, g.date, g.white, g.black, g.result, a]);
    }
  } catch (e) { /* archive not there yet */ }
  try {
    const l = await (await fetch("/api/learning")).json();
    const tb = $("opponents").tBodies[0];
    tb.replaceChildren();
    for (const o of l.opponents) row(tb, [o.opponent, o.games, o.wins, o.draws, o.losses, o.last_rating ?? ""]);
    text($("learning"), "learning store: " + l.games + " games, " + l.book_values + " book values, " +
         l.positions + " positions, " + l.forbidden + " forbidden moves, " + l.samples + " samples");
    drawRating(l.rating);
  } catch (e) { text($("learning"), "no learning store yet"); }
}
function drawRating(points) {
  const svg = $("rating");
  svg.replaceChildren();
  if (!points || points.length < 2) { text($("rating-note"), "not enough rated games yet"); return; }
  const lo = Math.min(...points.map((p) => p.rating)) - 10, hi = Math.max(...points.map((p) => p.rating)) + 10;
  const xy = points.map((p, i) => (i * 600 / (points.length - 1)).toFixed(1) + "," +
    (150 - (p.rating - lo) * 140 / (hi - lo)).toFixed(1));
  const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
  line.setAttribute("points", xy.join(" "));
  line.setAttribute("fill", "none"); line.setAttribute("stroke", "#2f6b2f"); line.setAttribute("stroke-width", "2");
  svg.appendChild(line);
  text($("rating-note"), points.length + " rated games, " + points[0].rating + " \u2192 " + points[points.length - 1].rating);
}
function connect() {
  const es = new EventSource("/api/events");
  es.onmessage = (ev) => drawStatus(JSON.parse(ev.data));
  es.onerror = () => { const c = $("conn"); c.className = "pill off"; text(c, "dashboard link lost"); };
}
function tick() { if (status) text($("uptime"), "up " + since(status.started_unix)); }
setInterval(tick, 1000);
connect();
