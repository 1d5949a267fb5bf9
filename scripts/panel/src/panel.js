// maison's camera panel: the view side of an MCP App.
//
// It talks only to its host, through the MCP Apps SDK's App class over
// postMessage; every picture comes from a tool call to maison that the host
// makes (camera_panel, visible to the app only), never from the network.
// Every word it shows comes from maison, in maison's language: the labels
// with the camera list, and for each picture the same sentences the
// camera_snapshot tool says.
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
} from "@modelcontextprotocol/ext-apps";

const TOOL = "camera_panel";

const app = new App({ name: "maison camera panel", version: "1" }, { availableDisplayModes: ["inline"] });

const $ = (sel, root = document) => root.querySelector(sel);
const grid = $("#grid");
const status = $("#status");
const all = $("#all");

// What maison said with the camera list; empty until it answers.
let labels = {};
let lang = "en";
// The house's time zone, from maison; until maison names one, the host's.
let timeZone;
let houseZone = "";
// Cards by camera id.
const cards = new Map();
// The camera the conversation asked for, shown large, and the picture the
// assistant was given of it (camera_snapshot's result), shown as it was
// rather than fetched again.
let wanted = "";
let given = null;

function fill(template, camera) {
  return (template || "").replaceAll("{camera}", camera);
}

// applyContext follows the host's theme, style variables, fonts and
// safe-area insets; a change carries only what changed.
function applyContext(ctx) {
  if (!ctx) return;
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
  if (ctx.timeZone && !houseZone) timeZone = ctx.timeZone;
  const inset = ctx.safeAreaInsets;
  if (inset) {
    const root = document.documentElement.style;
    for (const side of ["top", "right", "bottom", "left"]) {
      root.setProperty(`--safe-${side}`, `${Math.max(0, Number(inset[side]) || 0)}px`);
    }
  }
}

function textOf(result) {
  return (result?.content || [])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n\n");
}

function imageOf(result) {
  return (result?.content || []).find((c) => c.type === "image" && c.mimeType === "image/jpeg");
}

// ago says how long ago a picture was taken, rounded as maison's own
// sentence rounds it (voice.Ago): "just now" under 45 s, then whole
// minutes, hours and days, halves up, so the label and the sentence under
// it agree and never claim more than minutes.
function ago(ms) {
  const s = Math.max(0, ms) / 1000;
  if (s < 45) return labels.just_now || "";
  const n = (tmpl, v) => (tmpl || "").replace("{n}", String(v));
  const m = Math.round(s / 60);
  if (m < 60) return n(labels.minutes_ago, m);
  const h = Math.round(s / 3600);
  if (h < 24) return n(labels.hours_ago, h);
  return n(labels.days_ago, Math.round(s / 86400));
}

// clock says the time of day in hours and minutes, in maison's language
// and the house's time zone, as maison's words and the frames' overlays
// say it: 5:34 PM, 17 h 34.
function clock(date) {
  try {
    return new Intl.DateTimeFormat(lang, { hour: "numeric", minute: "2-digit", timeZone }).format(date);
  } catch {
    return date.toISOString().slice(11, 16);
  }
}

// age is how old the card's picture is now: its age on maison's clock
// when maison answered, plus the time this page counted since the answer
// arrived. The browser's clock is never compared with maison's.
function age(card) {
  return card.ageThen + (performance.now() - card.arrived);
}

function showFreshness(card) {
  const el = $(".fresh", card.el);
  if (!card.taken) {
    el.textContent = "";
    return;
  }
  el.textContent = (labels.taken || "{time}").replace("{time}", clock(card.taken)).replace("{age}", ago(age(card)));
}

function makeCard(cam) {
  const el = $("#card").content.firstElementChild.cloneNode(true);
  const card = { id: cam.id, name: cam.name, el, taken: null, ageThen: 0, arrived: 0, busy: false, seq: 0 };
  el.dataset.camera = cam.id;
  el.dataset.state = "loading";
  $("h2", el).textContent = cam.name;
  const refresh = $(".refresh", el);
  refresh.textContent = labels.refresh;
  refresh.setAttribute("aria-label", fill(labels.refresh_one, cam.name));
  refresh.addEventListener("click", () => load(card, true));
  const pic = $(".pic", el);
  const img = $("img", el);
  img.alt = fill(labels.picture, cam.name);
  const says = $(".says", el);
  says.id = `says-${cards.size}`;
  img.setAttribute("aria-describedby", says.id);
  pic.addEventListener("click", () => enlarge(card, !el.classList.contains("large")));
  enlarge(card, cam.id === wanted);
  return card;
}

function enlarge(card, large) {
  card.el.classList.toggle("large", large);
  const pic = $(".pic", card.el);
  pic.setAttribute("aria-label", fill(large ? labels.shrink : labels.enlarge, card.name));
  pic.setAttribute("aria-expanded", String(large));
}

// show puts a result of camera_panel or camera_snapshot on the card: its
// picture, its state and maison's words; arrived is when the page
// received it. Only a card that changed alone (its own refresh, the
// picture the assistant was given) is read aloud by screen readers: a
// refresh of all would read every card at once.
function show(card, result, arrived, alone) {
  const facts = result.structuredContent || {};
  const image = imageOf(result);
  const pic = $(".pic", card.el);
  const img = $("img", card.el);
  if (image) {
    img.src = `data:image/jpeg;base64,${image.data}`;
    pic.hidden = false;
  } else if (result.isError) {
    pic.hidden = true;
    img.removeAttribute("src");
  }
  card.taken = null;
  if (facts.taken_at && facts.now) {
    card.taken = new Date(facts.taken_at);
    card.ageThen = Math.max(0, Date.parse(facts.now) - card.taken.getTime());
    card.arrived = arrived;
  }
  card.el.dataset.state = facts.state || (result.isError ? "error" : "ok");
  speak(card, alone, textOf(result));
  showFreshness(card);
}

// speak puts maison's words under the card's picture, read aloud only
// when alone.
function speak(card, alone, text) {
  const says = $(".says", card.el);
  says.setAttribute("aria-live", alone ? "polite" : "off");
  says.textContent = text;
}

// load fetches one camera's picture through the host and shows it with
// maison's words; a camera without a picture shows the words alone. An
// answer that comes after the card was given a newer picture is dropped.
async function load(card, alone) {
  if (card.busy) return;
  card.busy = true;
  const seq = ++card.seq;
  const button = $(".refresh", card.el);
  button.setAttribute("aria-busy", "true");
  card.el.setAttribute("aria-busy", "true");
  try {
    const result = await app.callServerTool({ name: TOOL, arguments: { camera: card.id } });
    if (seq === card.seq) show(card, result, performance.now(), alone);
  } catch (err) {
    if (seq === card.seq) {
      card.el.dataset.state = "error";
      speak(card, alone, labels.failed || String(err?.message || err));
    }
  } finally {
    card.busy = false;
    button.removeAttribute("aria-busy");
    card.el.removeAttribute("aria-busy");
  }
}

async function refreshAll() {
  all.setAttribute("aria-busy", "true");
  await Promise.all([...cards.values()].map((card) => load(card, false)));
  all.removeAttribute("aria-busy");
}

// start asks maison which cameras the caller may see, with the words to
// show, then fetches every picture.
async function start() {
  const main = $("#panel");
  const result = await app.callServerTool({ name: TOOL, arguments: {} });
  const list = result.structuredContent || {};
  labels = list.labels || {};
  lang = list.lang || "en";
  if (list.time_zone) timeZone = houseZone = list.time_zone;
  document.documentElement.lang = lang;
  $("#title").textContent = labels.title || "";
  document.title = labels.title || document.title;
  all.textContent = labels.refresh_all || "";
  all.hidden = !(list.cameras || []).length;
  all.addEventListener("click", refreshAll);
  if (result.isError || !(list.cameras || []).length) {
    status.textContent = textOf(result);
    main.setAttribute("aria-busy", "false");
    return;
  }
  for (const cam of list.cameras) {
    const card = makeCard(cam);
    cards.set(cam.id, card);
    grid.append(card.el);
  }
  all.setAttribute("aria-busy", "true");
  await Promise.all(
    [...cards.values()].map((card) => (given?.id === card.id ? give(card) : load(card, false))),
  );
  all.removeAttribute("aria-busy");
  main.setAttribute("aria-busy", "false");
  document.body.dataset.ready = "true";
}

// give shows on its card the picture the assistant was given.
function give(card) {
  card.seq++; // a fetch under way would show an older picture
  show(card, given.result, given.arrived, document.body.dataset.ready === "true");
}

app.ontoolresult = (result) => {
  // camera_snapshot names the camera it showed; that one is shown large,
  // with the tool's own picture (a region's close-up) and words.
  const facts = result?.structuredContent;
  const id = facts?.camera;
  if (typeof id !== "string") return;
  wanted = id;
  if (facts.taken_at && imageOf(result)) given = { id, result, arrived: performance.now() };
  const card = cards.get(id);
  if (!card) return;
  enlarge(card, true);
  if (given?.id === id) give(card);
};
app.onhostcontextchanged = applyContext;

setInterval(() => cards.forEach(showFreshness), 5000);

app
  .connect()
  .then(() => {
    applyContext(app.getHostContext());
    return start();
  })
  .catch((err) => {
    status.textContent = labels.failed || String(err?.message || err);
  });
