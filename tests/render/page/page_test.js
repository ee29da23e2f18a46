// The HTML page in the system's headless Chromium, driven by puppeteer-core:
// at 390 px (a phone), 760 px (a blog column) and 1366x768 (a laptop) it
// does not scroll sideways, its controls are on screen, its text is at least
// 9 px, one arrow key moves one tick, space plays and pauses, #tick= follows
// the scrubber, and the speed and loop controls work. A P=64, M=1024 page
// stays under 2 MB.
//
// Run by ctest after the `render_page_npm_ci` fixture installed puppeteer-core
// from package-lock.json: node page_test.js PPSIM_BINARY SOURCE_DIR WORK_DIR
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const puppeteer = require('puppeteer-core');

const [ppsim, sourceDir, workArg] = process.argv.slice(2);
const work = fs.mkdtempSync(path.join(workArg || os.tmpdir(), 'page-'));
const scene = path.join(sourceDir, 'examples', 'gpipe_vs_1f1b.toml');

function render(out, extra) {
  execFileSync(ppsim, ['render', scene, '-o', out, ...extra], { stdio: ['ignore', 'ignore', 'inherit'] });
  return 'file://' + out;
}

const small = render(path.join(work, 'small.html'), []);
const largeFile = path.join(work, 'large.html');
const large = render(largeFile, ['--set', 'P=64', '--set', 'M=1024']);

let browser;
test.before(async () => {
  browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    userDataDir: fs.mkdtempSync(path.join(work, 'profile-')),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
test.after(async () => {
  if (browser) await browser.close();
  fs.rmSync(work, { recursive: true, force: true });
});

async function open(url, width, height) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewport({ width, height });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.documentElement.dataset.ready === '1');
  page.errors = errors;
  return page;
}

const tickOf = (page) => page.evaluate(() => Number(document.documentElement.dataset.tick));

for (const [width, height] of [[390, 844], [760, 900], [1366, 768]]) {
  test(`at ${width}x${height}: no sideways scroll, controls on screen, text >= 9 px`, async () => {
    const page = await open(small + '#tick=5', width, height);
    const facts = await page.evaluate(() => {
      const doc = document.documentElement;
      const box = (sel) => document.querySelector(sel).getBoundingClientRect().toJSON();
      const svg = document.querySelector('.chart svg');
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      let smallest = Infinity;
      for (const t of svg.querySelectorAll('text')) {
        smallest = Math.min(smallest, Number(t.getAttribute('font-size')) * scale);
      }
      return {
        viewport: !!document.querySelector('meta[name=viewport]'),
        pageScroll: doc.scrollWidth - window.innerWidth,
        play: box('#play'), scrub: box('#scrub'), speed: box('#speed'), loop: box('#loop'),
        smallest, innerHeight: window.innerHeight, innerWidth: window.innerWidth,
      };
    });
    assert.ok(facts.viewport, 'a viewport meta tag');
    assert.ok(facts.pageScroll <= 0, `the page scrolls ${facts.pageScroll} px sideways`);
    for (const name of ['play', 'scrub', 'speed', 'loop']) {
      const b = facts[name];
      assert.ok(b.top >= 0 && b.bottom <= facts.innerHeight && b.left >= 0 && b.right <= facts.innerWidth,
                `#${name} is off screen: ${JSON.stringify(b)}`);
    }
    // The chart never scales its text under 9 px: below 760 px it scrolls in its own box.
    assert.ok(facts.smallest >= 9 - 0.01, `smallest text ${facts.smallest.toFixed(2)} px`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('one arrow key is one tick, from the scrubber or anywhere', async () => {
  const page = await open(small + '#tick=5', 1366, 768);
  await page.focus('#scrub');
  await page.keyboard.press('ArrowRight');
  assert.equal(await tickOf(page), 6);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await tickOf(page), 4);
  await page.focus('#forward');
  await page.keyboard.press('ArrowRight');
  assert.equal(await tickOf(page), 5);
  assert.equal(await page.evaluate(() => location.hash), '#tick=5');
  await page.close();
});

test('space plays and pauses, once per press, also on a focused button', async () => {
  const page = await open(small + '#tick=0', 1366, 768);
  const playing = () => page.evaluate(() => document.documentElement.dataset.playing);
  await page.focus('#play');
  await page.keyboard.press('Space');
  assert.equal(await playing(), '1');
  await page.keyboard.press('Space');
  assert.equal(await playing(), '0');
  const t = await tickOf(page);
  await new Promise((r) => setTimeout(r, 700));  // paused: the tick stays
  assert.equal(await tickOf(page), t);
  await page.close();
});

test('#tick= follows the scrubber and the page opens there', async () => {
  const page = await open(small + '#tick=3', 760, 900);
  await page.$eval('#scrub', (el) => { el.value = '11'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.equal(await page.evaluate(() => location.hash), '#tick=11');
  assert.equal(await tickOf(page), 11);
  // The counter and each run's status say the same: 11 of 18 cycles done.
  assert.equal(await page.$eval('#tick', (el) => el.textContent), '11 of 18 cycles');
  const status = await page.evaluate(() => Array.from(document.querySelectorAll('text')).filter(
      (t) => t.style.display !== 'none' && t.textContent.startsWith('cycle ')).map((t) => t.textContent));
  assert.ok(status.length === 0, JSON.stringify(status));  // no second readout of the cycles
  const counts = await page.evaluate(() => Array.from(document.querySelectorAll('text')).filter(
      (t) => t.style.display !== 'none' && t.textContent.startsWith('11 of 18 cycles · ')).map((t) => t.textContent));
  assert.ok(counts.length === 2, JSON.stringify(counts));
  // Exactly the ops that started before tick 11 are drawn.
  const wrong = await page.evaluate(() => Array.from(document.querySelectorAll('rect.op')).filter(
      (r) => (r.style.display !== 'none') !== (Number(r.dataset.start) < 11)).length);
  assert.equal(wrong, 0);
  await page.goto(small + '#tick=11', { waitUntil: 'load' });
  await page.waitForFunction(() => document.documentElement.dataset.ready === '1');
  assert.equal(await tickOf(page), 11);
  await page.close();
});

test('speed and loop: a looping page at 4x wraps around to the start', async () => {
  const page = await open(small + '#tick=16', 1366, 768);
  const last = await page.evaluate(() => Number(document.documentElement.dataset.last));
  await page.select('#speed', '4');
  await page.click('#loop');
  await page.click('#play');
  await page.waitForFunction((l) => Number(document.documentElement.dataset.tick) === l, { timeout: 20000 }, last);
  await page.waitForFunction(() => Number(document.documentElement.dataset.tick) < 5, { timeout: 20000 });
  assert.equal(await page.evaluate(() => document.documentElement.dataset.playing), '1');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('P=64, M=1024: the page stays under 2 MB and steps one tick per key', async () => {
  const bytes = fs.statSync(largeFile).size;
  assert.ok(bytes < 2 * 1024 * 1024, `${bytes} bytes`);
  const page = await open(large + '#tick=1000', 1366, 768);
  await page.focus('#scrub');
  for (let i = 0; i < 10; ++i) await page.keyboard.press('ArrowRight');
  assert.equal(await tickOf(page), 1010);
  // In the page: a step's script and the style and layout it causes.
  const perStep = await page.evaluate(() => {
    const t0 = performance.now();
    for (let i = 0; i < 20; ++i) {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      document.querySelector('.chart svg').getBoundingClientRect();
    }
    return (performance.now() - t0) / 20;
  });
  assert.equal(await tickOf(page), 1030);
  // Reported, not asserted (tests are not timed).
  console.log(`# large page: ${bytes} bytes, ${perStep.toFixed(2)} ms per tick step (script + style + layout)`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// A laptop's viewport (1366x768 less the browser's chrome): every chart and
// every gauge is on screen without scrolling, the chart fitted to the height.
for (const scene of ['gpipe_vs_1f1b.toml', 'zb_vs_1f1b.toml']) {
  test(`${scene} at 1366x660: both charts and their gauges are on screen`, async () => {
    const file = path.join(work, scene.replace('.toml', '.html'));
    execFileSync(ppsim, ['render', path.join(sourceDir, 'examples', scene), '-o', file],
                 { stdio: ['ignore', 'ignore', 'inherit'] });
    const page = await open('file://' + file + '#tick=0', 1366, 660);
    const facts = await page.evaluate(() => {
      const runs = {};
      for (const bar of document.querySelectorAll('rect.held')) {
        const b = bar.getBoundingClientRect();
        const r = bar.dataset.run;
        runs[r] = Math.max(runs[r] || 0, b.bottom);
      }
      const svg = document.querySelector('.chart svg').getBoundingClientRect();
      return { runs, svgBottom: svg.bottom, innerHeight: window.innerHeight,
               scrollY: document.documentElement.scrollHeight > window.innerHeight ? window.scrollY : 0 };
    });
    assert.ok(Object.keys(facts.runs).length >= 2, JSON.stringify(facts));
    for (const [run, bottom] of Object.entries(facts.runs)) {
      assert.ok(bottom <= facts.innerHeight, `run ${run}'s gauge ends at ${bottom}, below the ${facts.innerHeight} px viewport`);
    }
    assert.ok(facts.svgBottom <= facts.innerHeight, `the chart ends at ${facts.svgBottom}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('the closing lines appear when the runs are done, not before', async () => {
  const page = await open(small + '#tick=5', 1366, 768);
  const shown = () => page.evaluate(() => Array.from(document.querySelectorAll('p.closing')).map(
      (p) => p.style.display !== 'none'));
  assert.deepEqual(await shown(), [false, false]);
  await page.$eval('#scrub', (el) => { el.value = '18'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.deepEqual(await shown(), [true, true]);
  await page.close();
});
