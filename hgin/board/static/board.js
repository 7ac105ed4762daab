"use strict";
(() => {
  const base = location.pathname.replace(/\/+$/, "");
  const scorer = document.body.dataset.role === "scorer";
  const $ = (id) => document.getElementById(id);
  const RECENT = 4; // the hands a TV lists under the last one
  let view = null;
  let polling = null;

  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  function render(data) {
    if (!data || !(data.waiting || data.id)) return;
    view = data;
    $("waiting").hidden = !data.waiting;
    $("match").hidden = !!data.waiting;
    $("scorer").hidden = !scorer || !!data.waiting;
    if (data.waiting) {
      $("waiting").textContent = data.waiting;
      return;
    }
    document.title = data.players.join(" v ");
    $("title").textContent = data.players.join(" v ");
    $("rules").textContent = data.rules;
    $("banner").textContent = data.banner;
    const games = $("games");
    const corner = element("th", "player", "Player");
    corner.scope = "col";
    games.replaceChildren(corner);
    for (const game of data.games) {
      const cell = element("th", game.winner ? "closed" : "", game.name);
      if (game.winner) cell.append(" ", element("span", "winner", game.note)); // a space for readers
      games.append(cell);
    }
    games.append(element("th", "wins", "Wins"));
    games.append(element("th", "total", "Total"));
    const rows = $("rows");
    rows.replaceChildren();
    data.players.forEach((player, index) => {
      const row = element("tr");
      row.append(element("th", "player", player));
      for (const game of data.games) {
        const square = game.cells[index];
        const classes = [];
        if (game.winner) classes.push(game.winner === player ? "closed won" : "closed");
        if (!square.entered) classes.push("out");
        const cell = element("td", classes.join(" "));
        cell.append(element("span", "points", square.points));
        if (square.bonus) cell.append(" ", element("span", "bonus", square.bonus)); // as above
        row.append(cell);
      }
      row.append(element("td", "wins", String(data.wins[index])));
      const total = element("td", "total");
      total.append(element("span", "points", String(data.totals[index])));
      row.append(total);
      rows.append(row);
    });
    $("closed").textContent = data.closed.join(" · ");
    $("last").textContent = data.last;
    $("recent").replaceChildren(
      ...data.hand_list.slice(1, RECENT + 1).map((hand) => element("li", "", hand.text)),
    );
    $("money").textContent = data.money;
    $("summary").href = base + "/summary"; // the page's own address, whatever it was opened as
    if (scorer) showEntry();
  }

  function load() {
    fetch(base + "/sheet.json", { cache: "no-store" })
      .then((answer) => (answer.ok ? answer.json() : null))
      .then(render)
      .catch(() => {});
  }

  // The stream brings every change; while it is down, the page asks for the sheet itself.
  function follow() {
    const stream = new EventSource(base + "/events");
    stream.onmessage = (event) => render(JSON.parse(event.data));
    stream.onopen = () => {
      clearInterval(polling);
      polling = null;
      $("status").textContent = "";
    };
    stream.onerror = () => {
      $("status").textContent = worded("reconnecting");
      if (polling === null) polling = setInterval(load, 2000);
    };
  }

  // -- the scorer page: an entry is an action, a player, then the counts it takes ---------
  const COUNTS = {
    gin: 1, big_gin: 1, knock: 2, draw: 0, undo: 0, redo: 0, notice: 0, rematch: 0, series_next: 0,
    delete: 0,
  };
  let handsShown = false;
  let newMatchShown = false;
  let profile = "";

  function showProfiles() {
    $("profiles").replaceChildren(
      ...(view.profiles || []).map((name) => {
        const button = element("button", "", name);
        button.type = "button";
        button.dataset.profile = name;
        button.setAttribute("aria-pressed", String(name === profile));
        return button;
      }),
    );
  }

  // The match's hands, newest first, each with its Edit and Delete buttons.
  function showHands() {
    $("hands").hidden = !handsShown;
    if (!handsShown) return;
    $("hands").replaceChildren(
      ...(view.hand_list || []).map((hand) => {
        const item = element("li");
        item.append(element("span", "", hand.text));
        for (const [key, label] of [["edit", "Edit"], ["delete", "Delete"]]) {
          const button = element("button", "", label);
          button.type = "button";
          button.dataset.key = key;
          button.dataset.hand = String(hand.number);
          button.dataset.said = hand.text;
          button.setAttribute("aria-label", `${label} hand ${hand.number}`);
          item.append(button);
        }
        return item;
      }),
    );
  }
  const TITLES = {
    gin: "Gin", big_gin: "Big gin", knock: "Knock", draw: "Dead hand", notice: "Notice", rematch: "Rematch",
    series_next: "Next in series",
  };
  const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
  let entry = null;
  let typing = "";

  function other(player) {
    return view.players[0] === player ? view.players[1] : view.players[0];
  }

  // The question, and every sentence below, comes worded in the board's JSON.
  function worded(key, values = {}) {
    let text = ((view && view.questions) || {})[key] || "";
    for (const [name, value] of Object.entries(values)) text = text.replace(`{${name}}`, value);
    return text;
  }

  function askedFor() {
    const knocker = entry.action === "knock" && entry.counts.length === 0;
    return worded("deadwood", { player: knocker ? entry.player : other(entry.player) });
  }

  // An Oklahoma hand names its upcard, rank then suit, once the player is chosen.
  function upcardStep() {
    const offers = view.offers || {};
    if (entry === null || !offers.upcard || COUNTS[entry.action] === 0 || entry.player === "") {
      return "";
    }
    if (entry.rank === "") return "rank";
    return entry.upcard === "" ? "suit" : "";
  }

  function showEntry() {
    const needsPlayer = entry !== null && COUNTS[entry.action] > 0 && entry.player === "";
    const step = upcardStep();
    const counting =
      entry !== null && entry.player !== "" && step === "" && entry.counts.length < COUNTS[entry.action];
    $("players").hidden = !needsPlayer;
    $("ranks").hidden = step !== "rank";
    $("suits").hidden = step !== "suit";
    $("pad").hidden = !counting;
    $("confirm").hidden = !(entry !== null && COUNTS[entry.action] === 0);
    if (needsPlayer) {
      $("players").replaceChildren(
        ...view.players.map((player) => {
          const button = element("button", "", player);
          button.type = "button";
          button.dataset.player = player;
          return button;
        }),
      );
    }
    const offers = view.offers || {};
    for (const button of $("actions").querySelectorAll("button")) {
      const action = button.dataset.action || button.dataset.offer;
      button.hidden = action in offers && !offers[action];
    }
    $("newmatch").hidden = !newMatchShown;
    $("record").textContent = entry !== null && entry.action === "delete" ? "Delete" : "Record";
    showHands();
    if (entry !== null && (entry.action === "undo" || entry.action === "redo")) {
      $("entry").textContent = offers[entry.action] || "";
      return;
    }
    if (entry !== null && entry.action === "delete") {
      $("entry").textContent = `${entry.said}?`;
      return;
    }
    if (entry !== null && entry.action === "") {
      $("entry").textContent = `${entry.said}: ${(view.questions || {}).correct || ""}`;
      return;
    }
    const upcard =
      entry !== null && entry.upcard ? worded("upcard", { card: entry.rank + SUITS[entry.upcard.slice(-1)] }) : "";
    const parts = entry === null ? [] : [TITLES[entry.action], entry.player, upcard, ...entry.counts];
    if (needsPlayer) parts.push((view.questions || {})[entry.action] || "");
    if (step) parts.push((view.questions || {})[step] || "");
    if (counting) parts.push(`${askedFor()} ${typing}_`);
    $("entry").textContent = parts.filter((part) => part !== "").join(" · ");
  }

  function requestId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function say(message, refused) {
    $("said").textContent = message;
    $("said").classList.toggle("refused", refused);
  }

  // The same request id on every try: the board records an entry once however often it comes.
  // A refused entry comes back for correction: the action, player and upcard kept.
  function send(body, tries, pending) {
    fetch(base + "/enter", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    })
      .then((answer) => answer.json())
      .then((answer) => {
        say(answer.message, !answer.ok);
        if (!answer.ok && entry === null && pending.counts !== undefined && COUNTS[pending.action] > 0) {
          entry = { ...pending, counts: [] };
          typing = "";
          showEntry();
        }
      })
      .catch(() => {
        if (tries < 3) setTimeout(() => send(body, tries + 1, pending), 1000);
        else say(worded("unreachable"), true);
      });
  }

  function record() {
    const { rank, said, ...sent } = entry;
    const body = { request: requestId(), match: view.id, version: view.version, ...sent };
    const pending = entry;
    entry = null;
    typing = "";
    showEntry();
    say("…", false);
    send(body, 0, pending);
  }

  // A count is checked as it is typed, against the limits the rules give (the board's JSON).
  function refusal(count) {
    const offers = view.offers || {};
    const words = offers.refusals || {};
    if (entry.action === "knock" && entry.counts.length === 0) {
      const limit = (offers.knock_limit || {})[entry.rank || ""];
      if (limit === 0) return words.no_knock;
      if (count < 1 || count > limit) {
        return words.knock.replace("{player}", entry.player).replace("{count}", count).replace("{limit}", limit);
      }
      return "";
    }
    if (count > offers.max_deadwood) {
      return words.deadwood.replace("{count}", count).replace("{limit}", offers.max_deadwood);
    }
    return "";
  }

  function tapped(event) {
    const button = event.target.closest("button");
    if (!button || view === null || view.waiting) return;
    const { action, player, key, rank, suit, hand, said } = button.dataset;
    if (key === "newmatch") {
      newMatchShown = !newMatchShown;
      entry = null;
      showProfiles();
    } else if (button.dataset.profile) {
      profile = button.dataset.profile;
      showProfiles();
      return;
    } else if (key === "start") {
      entry = { action: "new", first: $("first").value, second: $("second").value, rules: profile };
      newMatchShown = false;
      record();
      return;
    } else if (key === "hands") {
      handsShown = !handsShown;
      button.setAttribute("aria-expanded", String(handsShown));
    } else if (key === "delete") {
      entry = { action: "delete", hand: Number(hand), said, player: "", counts: [], rank: "", upcard: "" };
      handsShown = false;
    } else if (key === "edit") {
      // A correction takes the same steps as an entry: its kind first.
      entry = { action: "", hand: Number(hand), said, player: "", counts: [], rank: "", upcard: "" };
      handsShown = false;
    } else if (action) {
      const correcting = entry !== null && entry.action === "" ? entry.hand : undefined;
      entry = { action, player: "", counts: [], rank: "", upcard: "" };
      if (correcting !== undefined) entry.hand = correcting;
      typing = "";
    } else if (player) {
      entry.player = player;
    } else if (rank) {
      entry.rank = rank;
    } else if (suit) {
      entry.upcard = entry.rank + suit;
    } else if (key === "cancel") {
      entry = null;
    } else if (key === "record") {
      record();
      return;
    } else if (key === "back") {
      typing = typing.slice(0, -1);
    } else if (key === "ok") {
      if (typing === "") return;
      const count = Number(typing);
      typing = "";
      const refused = refusal(count);
      if (refused) {
        say(`hgin: ${refused}`, true); // the entry stays: type the count again
        showEntry();
        return;
      }
      entry.counts.push(count);
      if (entry.counts.length === COUNTS[entry.action]) {
        record();
        return;
      }
    } else if (typing.length < 3) {
      typing += button.textContent;
    }
    showEntry();
  }

  if (scorer) $("scorer").addEventListener("click", tapped);
  load();
  follow();
})();
