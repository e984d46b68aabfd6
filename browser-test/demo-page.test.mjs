// The demo page in a real browser: starts `./sam3 dev --demo` on free loopback ports, drives Debian's Chromium
// through playwright-core, and checks what a person would see. Skipped, saying so, where no Chromium is installed.
import {test, before, after} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {existsSync, mkdirSync, mkdtempSync, rmSync} from "node:fs";
import {createServer} from "node:net";
import {tmpdir} from "node:os";
import {dirname, join} from "node:path";
import {fileURLToPath} from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..");
const artefacts = join(here, "target");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const READY_LINE = "Application startup complete";
const STARTUP_MS = 240_000;

let stack;
let dataDir;
let baseUrl;
let browser;

/** A port the kernel says is free now, and the one after it (the broker's controller takes port + 1). */
async function freePort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const {port: p} = server.address();
        server.close(() => resolve(p));
      });
    });
    if (port < 65535) {
      return port;
    }
  }
}

function startStack(httpPort, kafkaPort, registryPort) {
  dataDir = mkdtempSync(join(tmpdir(), "sam3-page-"));
  const child = spawn(join(repo, "sam3"), ["dev", "--demo", "--port", String(httpPort), "--kafka-port",
    String(kafkaPort), "--registry-port", String(registryPort), "--data-dir", dataDir], {
    cwd: repo,
    env: {...process.env, SAM3_PRECISION: "fp32"},
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no ready line in " + STARTUP_MS + " ms:\n" + output)),
        STARTUP_MS);
    const read = (chunk) => {
      output += chunk;
      if (output.includes(READY_LINE)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error("./sam3 dev exited with " + code + ":\n" + output));
    });
  });
  return {child, ready, output: () => output};
}

const haveChromium = existsSync(chromiumPath);
if (!haveChromium) {
  console.log("SKIPPED: the demo page's browser test needs Chromium at " + chromiumPath
      + " (apt-get install chromium); set CHROMIUM to another path");
}

before(async () => {
  if (!haveChromium) {
    return;
  }
  mkdirSync(artefacts, {recursive: true});
  const [httpPort, kafkaPort, registryPort] = [await freePort(), await freePort(), await freePort()];
  baseUrl = "http://127.0.0.1:" + httpPort;
  stack = startStack(httpPort, kafkaPort, registryPort);
  await stack.ready;
  const {chromium} = await import("playwright-core");
  browser = await chromium.launch({executablePath: chromiumPath, args: ["--no-sandbox"]});
});

after(async () => {
  if (browser) {
    await browser.close();
  }
  if (stack) {
    const exited = new Promise((resolve) => stack.child.once("exit", resolve));
    stack.child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    stack.child.kill("SIGKILL");
  }
  if (dataDir) {
    rmSync(dataDir, {recursive: true, force: true});
  }
});

/** How many pixels of the overlay canvas are not transparent. */
function paintedPixels(page) {
  return page.evaluate(() => {
    const canvas = document.getElementById("overlay");
    const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) {
      painted += data[i] > 0 ? 1 : 0;
    }
    return painted;
  });
}

test("a sample image with two prompts is segmented and drawn", {skip: !haveChromium}, async () => {
  const page = await browser.newPage({viewport: {width: 1400, height: 1000}});
  const consoleErrors = [];
  page.on("pageerror", (e) => consoleErrors.push(e.message));
  await page.goto(baseUrl + "/");
  await page.locator("#status.ok").waitFor({timeout: 30_000});
  assert.ok(await page.locator("#demo-banner").isVisible(), "the demo banner is shown for the demo model");
  assert.ok(!(await page.locator("#token-row").isVisible()), "no token field while auth is off");
  assert.ok(!(await page.locator("#error").isVisible()), "no error before a request");

  await page.setInputFiles("#file", join(repo, "media", "rocket.jpg"));
  await page.fill("#prompts input.prompt >> nth=0", "rocket");
  await page.click("#add-prompt");
  await page.fill("#prompts input.prompt >> nth=1", "tower");
  // every query passes a threshold of 0, so the noise of the demo model still yields instances to draw
  await page.fill("#threshold", "0");
  await page.fill("#max-instances", "3");
  assert.equal(await paintedPixels(page), 0, "nothing is drawn before a result");

  const answer = page.waitForResponse((r) => r.url().endsWith("/predict"));
  await page.click("#run");
  const response = await answer;
  assert.equal(response.status(), 200);
  const json = await response.json();
  await page.locator("#legend .prompt >> nth=1").waitFor();

  assert.deepEqual(json.results.map((r) => r.prompt), ["rocket", "tower"]);
  const listed = await page.$$eval("#legend .prompt", (rows) => rows.map((r) => Number(r.dataset.count)));
  assert.deepEqual(listed, json.results.map((r) => r.instances.length), "the legend lists the JSON's instances");
  assert.equal(await page.locator("#legend .instance").count(),
      json.results.reduce((n, r) => n + r.instances.length, 0));
  assert.ok(listed.reduce((a, b) => a + b, 0) > 0, "the demo model returned instances at threshold 0");
  assert.ok(await paintedPixels(page) > 0, "the overlay shows masks and boxes");
  assert.ok(await page.locator("#timings").isVisible(), "the per-stage timings are shown");
  assert.match(await page.locator("#timings").innerText(), /total/);

  // hiding a prompt takes its drawing away
  const before = await paintedPixels(page);
  await page.locator("#legend .prompt >> nth=0 >> input[type=checkbox]").uncheck();
  await page.locator("#legend .prompt >> nth=1 >> input[type=checkbox]").uncheck();
  assert.equal(await paintedPixels(page), 0, "both prompts hidden: nothing drawn");
  await page.locator("#legend .prompt >> nth=0 >> input[type=checkbox]").check();
  assert.ok(await paintedPixels(page) > 0 && await paintedPixels(page) <= before);
  await page.locator("#legend .prompt >> nth=1 >> input[type=checkbox]").check();

  await page.screenshot({path: join(artefacts, "demo-page.png"), fullPage: true});
  assert.deepEqual(consoleErrors, [], "no script errors");
  await page.close();
});

test("a file that is not an image shows the server's message", {skip: !haveChromium}, async () => {
  const page = await browser.newPage();
  await page.goto(baseUrl + "/");
  await page.locator("#status.ok").waitFor({timeout: 30_000});
  await page.setInputFiles("#file", join(repo, "README.md"));
  await page.fill("#prompts input.prompt >> nth=0", "rocket");
  const answer = page.waitForResponse((r) => r.url().endsWith("/predict"));
  await page.click("#run");
  const response = await answer;
  const json = await response.json();
  assert.equal(response.status(), 400);
  const error = page.locator("#error");
  await error.waitFor({state: "visible"});
  const text = await error.innerText();
  assert.match(text, /^HTTP 400 \(the image or a prompt was refused\)/);
  assert.ok(text.includes(json.detail), "the page shows the server's detail: " + text);
  await page.screenshot({path: join(artefacts, "demo-page-error.png"), fullPage: true});
  await page.close();
});
