"use strict";
// What the club's pages share (the projector's, a player's): their words, English in the page and
// translated from the tool's catalogues (GET /api/messages), and their data followed as the server pushes
// it. Names and scores come as data and go on screen as text (textContent), never as markup.
let MESSAGES = {};
const LANGUAGES = ["en", "es", "it", "de"];
const POLL_MS = 2000;

function t(message, ...args) {
  const parts = (MESSAGES[message] || message).split("%s");
  return parts.map((part, i) => part + (i < parts.length - 1 && i < args.length ? String(args[i]) : "")).join("");
}

function chosenLanguage() {
  const kept = localStorage.getItem("cribboard-lang");
  return LANGUAGES.includes(kept) ? kept : document.documentElement.lang;
}

// The page's words in the reader's language: each [data-t] element's, and the language picker's choice.
async function loadMessages() {
  const data = await (await fetch("/api/messages?lang=" + encodeURIComponent(chosenLanguage()))).json();
  MESSAGES = data.messages;
  document.documentElement.lang = data.lang;
  document.getElementById("lang").value = data.lang;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
}

function signed(n) { return n > 0 ? "+" + n : String(n); }

// The server pushes each change of what path answers on stream (Server-Sent Events; the browser reconnects
// by itself); a stream refused before its first data (an old server, a proxy that does not pass it) leaves
// the page polling path instead. shown(data) for each; away() while the server does not answer.
function follow(stream, path, shown, away) {
  if (!window.EventSource) return poll(path, shown, away);
  const source = new EventSource(stream);
  let heard = false;
  source.onmessage = (e) => { heard = true; shown(JSON.parse(e.data)); };
  source.onerror = () => {
    if (heard) return away();
    source.close();
    poll(path, shown, away);
  };
}

async function poll(path, shown, away) {
  try {
    const answer = await fetch(path, {cache: "no-store"});
    const data = await answer.json();
    if (!answer.ok) throw new Error(data.error || answer.status);
    shown(data);
  } catch (e) {
    away();
  }
  setTimeout(() => poll(path, shown, away), POLL_MS);
}
