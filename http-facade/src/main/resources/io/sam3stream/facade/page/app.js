// The demo page: picks an image, sends POST /predict and draws what comes back. Plain browser JavaScript, no build
// step; every request goes to the facade that served this page.
"use strict";

const PALETTE = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45"];
const FALLBACK_MAX_PROMPTS = 4;

const state = {
  maxPrompts: FALLBACK_MAX_PROMPTS,
  image: null,        // {base64, width, height, bitmap}
  boxes: [],          // {prompt, xyxy: [x0, y0, x1, y1], positive}
  result: null,       // the last /predict answer
  hidden: new Set(),  // prompt indices whose masks are toggled off
  masks: [],          // per prompt: [{instance, canvas}] tinted mask layers
};

const $ = (id) => document.getElementById(id);

function authHeaders() {
  const token = $("token").value.trim();
  return token ? {Authorization: "Bearer " + token} : {};
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

/** "413 payload_too_large: the body exceeds 22435157 bytes" from the server's {"error", "detail"} answer. */
async function describeFailure(response) {
  let text = "";
  try {
    const body = await response.json();
    text = [body.error, body.detail].filter(Boolean).join(": ");
  } catch (e) {
    text = response.statusText;
  }
  const retry = response.headers.get("Retry-After");
  const advice = {
    400: "the image or a prompt was refused",
    401: "a valid bearer token is needed (field below the options)",
    413: "the image is too large for this server",
    422: "the request does not match the API",
    429: "the service is busy" + (retry ? ", retry in " + retry + " s" : ""),
    503: "no worker is ready yet",
    504: "no answer in time",
  }[response.status];
  return "HTTP " + response.status + (advice ? " (" + advice + ")" : "") + (text ? ": " + text : "");
}

async function checkHealth() {
  try {
    const response = await fetch("/health");
    const body = await response.json();
    const status = $("status");
    status.textContent = body.status === "ok"
        ? "ready: " + body.device.ready_workers + " worker(s) on " + (body.device.name || "?")
        : "starting: no worker ready yet";
    status.className = "status " + (body.status === "ok" ? "ok" : "down");
    $("demo-banner").hidden = !(body.weights && body.weights.demo);
  } catch (e) {
    $("status").textContent = "the facade does not answer";
    $("status").className = "status down";
  }
}

async function readLimits() {
  const response = await fetch("/info", {headers: authHeaders()});
  if (response.status === 401) {
    $("token-row").hidden = false;
    return;
  }
  if (response.ok) {
    const info = await response.json();
    state.maxPrompts = info.limits.max_prompts;
    $("token-row").hidden = !(info.runtime && info.runtime.auth);
  }
  updatePromptControls();
}

async function listSamples() {
  const response = await fetch("/page/samples.json");
  const names = response.ok ? await response.json() : [];
  const holder = $("samples");
  holder.textContent = names.length ? "Samples: " : "";
  for (const name of names) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = name;
    button.dataset.sample = name;
    button.addEventListener("click", async () => {
      const sample = await fetch("/page/samples/" + encodeURIComponent(name));
      await loadImage(await sample.blob());
    });
    holder.appendChild(button);
  }
}

function addPrompt(text) {
  const row = document.createElement("div");
  row.className = "prompt-row";
  const input = document.createElement("input");
  input.type = "text";
  input.className = "prompt";
  input.placeholder = "a noun phrase, e.g. rocket";
  input.value = text || "";
  input.addEventListener("input", updatePromptControls);
  const remove = document.createElement("button");
  remove.type = "button";
  remove.textContent = "×";
  remove.title = "remove this prompt";
  remove.addEventListener("click", () => {
    const index = [...$("prompts").children].indexOf(row);
    state.boxes = state.boxes.filter((b) => b.prompt !== index)
        .map((b) => ({...b, prompt: b.prompt > index ? b.prompt - 1 : b.prompt}));
    row.remove();
    updatePromptControls();
    drawBoxes();
  });
  row.append(input, remove);
  $("prompts").appendChild(row);
  updatePromptControls();
  return input;
}

function promptTexts() {
  return [...document.querySelectorAll("#prompts input.prompt")].map((i) => i.value.trim());
}

function updatePromptControls() {
  const count = $("prompts").children.length;
  $("add-prompt").disabled = count >= state.maxPrompts;
  const select = $("box-prompt");
  const chosen = select.value;
  select.textContent = "";
  promptTexts().forEach((text, i) => {
    const option = document.createElement("option");
    option.value = String(i);
    option.textContent = (i + 1) + ": " + (text || "(empty)");
    select.appendChild(option);
  });
  if (chosen && Number(chosen) < count) {
    select.value = chosen;
  }
  $("run").disabled = !state.image || promptTexts().every((t) => !t);
}

async function loadImage(blob) {
  clearError();
  const base64 = await new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
  let bitmap = null;
  try {
    bitmap = await createImageBitmap(blob);
  } catch (e) {
    // not an image the browser can show: still send it, so that the server says what is wrong with it
  }
  state.image = {base64, bitmap, width: bitmap ? bitmap.width : 640, height: bitmap ? bitmap.height : 427};
  state.boxes = [];
  state.result = null;
  state.masks = [];
  for (const canvas of [$("picture"), $("overlay")]) {
    canvas.width = state.image.width;
    canvas.height = state.image.height;
  }
  const picture = $("picture").getContext("2d");
  picture.clearRect(0, 0, state.image.width, state.image.height);
  if (bitmap) {
    picture.drawImage(bitmap, 0, 0);
  }
  $("empty").hidden = true;
  $("legend").textContent = "";
  $("timings").hidden = true;
  drawOverlay();
  updatePromptControls();
}

function requestBody() {
  const prompts = promptTexts().map((text, i) => {
    const boxes = state.boxes.filter((b) => b.prompt === i)
        .map((b) => ({box_xyxy: b.xyxy, positive: b.positive}));
    return boxes.length ? {text, boxes} : text;
  }).filter((p) => (typeof p === "string" ? p : p.text));
  return {
    image: state.image.base64,
    prompts,
    threshold: Number($("threshold").value),
    max_instances: Number($("max-instances").value),
    mask_format: "png",
  };
}

async function run() {
  clearError();
  $("run").disabled = true;
  $("run").textContent = "Segmenting ...";
  try {
    const response = await fetch("/predict", {
      method: "POST",
      headers: {"Content-Type": "application/json", ...authHeaders()},
      body: JSON.stringify(requestBody()),
    });
    if (!response.ok) {
      showError(await describeFailure(response));
      return;
    }
    state.result = await response.json();
    state.hidden.clear();
    await buildMasks();
    drawOverlay();
    renderLegend();
    renderTimings();
  } catch (e) {
    showError("the request failed: " + e.message);
  } finally {
    $("run").textContent = "Segment";
    updatePromptControls();
  }
}

/** Each instance's mask PNG (255 inside) as a canvas tinted in its prompt's colour. */
async function buildMasks() {
  state.masks = [];
  for (const [p, result] of state.result.results.entries()) {
    const colour = hexToRgb(PALETTE[p % PALETTE.length]);
    const layers = [];
    for (const instance of result.instances) {
      if (!instance.mask_png) {
        layers.push({instance, canvas: null});
        continue;
      }
      const png = await fetch("data:image/png;base64," + instance.mask_png);
      const bitmap = await createImageBitmap(await png.blob());
      const canvas = document.createElement("canvas");
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
      const context = canvas.getContext("2d");
      context.drawImage(bitmap, 0, 0);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 0; i < pixels.data.length; i += 4) {
        const inside = pixels.data[i] > 127;
        pixels.data[i] = colour[0];
        pixels.data[i + 1] = colour[1];
        pixels.data[i + 2] = colour[2];
        pixels.data[i + 3] = inside ? 110 : 0;
      }
      context.putImageData(pixels, 0, 0);
      layers.push({instance, canvas});
    }
    state.masks.push(layers);
  }
}

function hexToRgb(hex) {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

function drawOverlay() {
  const canvas = $("overlay");
  const context = canvas.getContext("2d");
  context.clearRect(0, 0, canvas.width, canvas.height);
  const lineWidth = Math.max(2, Math.round(canvas.width / 300));
  state.masks.forEach((layers, p) => {
    if (state.hidden.has(p)) {
      return;
    }
    const colour = PALETTE[p % PALETTE.length];
    for (const {instance, canvas: mask} of layers) {
      if (mask) {
        context.drawImage(mask, 0, 0);
      }
      const [x0, y0, x1, y1] = instance.box_xyxy;
      context.strokeStyle = colour;
      context.lineWidth = lineWidth;
      context.strokeRect(x0, y0, x1 - x0, y1 - y0);
      context.fillStyle = colour;
      context.font = Math.max(12, lineWidth * 6) + "px system-ui, sans-serif";
      context.fillText(instance.score.toFixed(2), x0 + lineWidth, Math.max(12, y0 - lineWidth));
    }
  });
  drawBoxes();
}

function drawBoxes() {
  const context = $("overlay").getContext("2d");
  context.save();
  context.setLineDash([6, 4]);
  context.lineWidth = 2;
  for (const box of state.boxes) {
    const [x0, y0, x1, y1] = box.xyxy;
    context.strokeStyle = box.positive ? "#1a9850" : "#d73027";
    context.strokeRect(x0, y0, x1 - x0, y1 - y0);
  }
  context.restore();
  const list = $("boxes");
  list.textContent = "";
  for (const box of state.boxes) {
    const item = document.createElement("li");
    item.textContent = (box.positive ? "+" : "−") + " prompt " + (box.prompt + 1) + ": ["
        + box.xyxy.map((v) => Math.round(v)).join(", ") + "]";
    list.appendChild(item);
  }
}

function renderLegend() {
  const legend = $("legend");
  legend.textContent = "";
  state.result.results.forEach((result, p) => {
    const row = document.createElement("div");
    row.className = "prompt";
    row.dataset.count = String(result.instances.length);
    const toggle = document.createElement("input");
    toggle.type = "checkbox";
    toggle.checked = true;
    toggle.title = "show or hide this prompt's instances";
    toggle.addEventListener("change", () => {
      if (toggle.checked) {
        state.hidden.delete(p);
      } else {
        state.hidden.add(p);
      }
      drawOverlay();
    });
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = PALETTE[p % PALETTE.length];
    const text = document.createElement("span");
    text.textContent = "\u201c" + result.prompt + "\u201d: " + result.instances.length + " instance"
        + (result.instances.length === 1 ? "" : "s") + ", presence " + result.presence.toFixed(3)
        + (result.instances.length ? " (scores " + result.instances.map((i) => i.score.toFixed(2)).join(", ")
        + ")" : "");
    row.append(toggle, swatch, text);
    for (const instance of result.instances) {
      const marker = document.createElement("span");
      marker.className = "instance";
      marker.hidden = true;
      marker.dataset.score = String(instance.score);
      row.appendChild(marker);
    }
    legend.appendChild(row);
  });
}

function renderTimings() {
  const body = $("timings").querySelector("tbody");
  body.textContent = "";
  for (const [stage, ms] of Object.entries(state.result.timing_ms || {})) {
    const row = document.createElement("tr");
    const name = document.createElement("td");
    name.textContent = stage;
    const value = document.createElement("td");
    value.textContent = Number(ms).toFixed(1);
    row.append(name, value);
    body.appendChild(row);
  }
  $("timings").hidden = false;
}

/** Mouse position in image pixels (the canvas may be shown smaller than the image). */
function imagePoint(event) {
  const canvas = $("overlay");
  const rect = canvas.getBoundingClientRect();
  return [(event.clientX - rect.left) * canvas.width / rect.width,
    (event.clientY - rect.top) * canvas.height / rect.height];
}

function wireBoxDrawing() {
  let start = null;
  const overlay = $("overlay");
  overlay.addEventListener("mousedown", (event) => {
    if (state.image && $("prompts").children.length) {
      start = {point: imagePoint(event), positive: !event.shiftKey};
    }
  });
  overlay.addEventListener("mouseup", (event) => {
    if (!start) {
      return;
    }
    const end = imagePoint(event);
    const xyxy = [Math.min(start.point[0], end[0]), Math.min(start.point[1], end[1]),
      Math.max(start.point[0], end[0]), Math.max(start.point[1], end[1])];
    if (xyxy[2] - xyxy[0] >= 2 && xyxy[3] - xyxy[1] >= 2) {
      state.boxes.push({prompt: Number($("box-prompt").value || 0), xyxy, positive: start.positive});
      drawOverlay();
    }
    start = null;
  });
}

function wireImageInput() {
  $("file").addEventListener("change", () => {
    if ($("file").files.length) {
      loadImage($("file").files[0]);
    }
  });
  const drop = $("drop");
  drop.addEventListener("dragover", (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    if (event.dataTransfer.files.length) {
      loadImage(event.dataTransfer.files[0]);
    }
  });
}

window.addEventListener("DOMContentLoaded", () => {
  addPrompt("");
  wireImageInput();
  wireBoxDrawing();
  $("add-prompt").addEventListener("click", () => addPrompt("").focus());
  $("clear-boxes").addEventListener("click", () => {
    state.boxes = [];
    drawOverlay();
  });
  $("token").addEventListener("change", readLimits);
  $("run").addEventListener("click", run);
  checkHealth();
  setInterval(checkHealth, 5000);
  readLimits();
  listSamples();
});
