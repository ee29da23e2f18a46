// The HTML page in the system's headless Chromium, driven by puppeteer-core:
// at 390 px (a phone), 760 px (a blog column) and 1366x768 (a laptop) it
// does not scroll sideways (below 776 px it shows the runs laid out again
// for a phone's width, every cycle of every chart on screen), its controls are on screen, its text is at least
// 9 px, one arrow key moves one tick (shift+arrow, and each step of play, as
// many as the video plays a frame), space plays and pauses, #tick= follows
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
      const svg = Array.from(document.querySelectorAll('.chart svg')).find((e) => e.getBoundingClientRect().width > 0);
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
    // The chart never scales its text under 9 px: below 776 px the phone's layout is shown.
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
  // The texts of the chart on screen (the page's or the phone's layout).
  const texts = await page.evaluate(() => Array.from(Array.from(document.querySelectorAll('.chart svg')).find(
      (e) => e.getBoundingClientRect().width > 0).querySelectorAll('text')).filter(
      (t) => t.style.display !== 'none').map((t) => t.textContent));
  const status = texts.filter((t) => t.startsWith('cycle '));
  assert.ok(status.length === 0, JSON.stringify(status));  // no second readout of the cycles
  const counts = texts.filter((t) => t.startsWith('11 of 18 cycles · '));
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

test('a long run plays as many cycles a step as its video a frame; shift+arrow steps as far', async () => {
  const page = await open(large + '#tick=0', 1366, 768);
  const [last, stride] = await page.evaluate(() => [Number(document.documentElement.dataset.last),
                                                   Number(document.documentElement.dataset.ticksPerStep)]);
  // Pacing: over 30 s at a frame a cycle, so about 12 s at 30 frames a second.
  assert.equal(stride, Math.ceil(last / (12 * 30)), `last ${last}`);
  assert.ok(stride > 1, `stride ${stride}`);
  await page.focus('#scrub');
  await page.keyboard.down('Shift');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.up('Shift');
  assert.equal(await tickOf(page), stride);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await tickOf(page), stride - 1);
  await page.keyboard.press('ArrowRight');
  await page.click('#play');
  await page.waitForFunction((s) => Number(document.documentElement.dataset.tick) > s, { timeout: 20000 }, stride);
  const seen = await tickOf(page);
  assert.equal(seen % stride, 0, `tick ${seen} during play is not a multiple of ${stride}`);
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

// A phone (390x844): the page shows the runs laid out again for its width,
// not a 760 px chart cropped to 374: the chart's box does not scroll, and the
// last cycle of every chart is inside the viewport.
for (const scene of ['gpipe_vs_1f1b.toml', 'zb_vs_1f1b.toml']) {
  test(`${scene} at 390x844: every cycle of every chart is on screen`, async () => {
    const file = path.join(work, 'phone-' + scene.replace('.toml', '.html'));
    execFileSync(ppsim, ['render', path.join(sourceDir, 'examples', scene), '-o', file],
                 { stdio: ['ignore', 'ignore', 'inherit'] });
    const page = await open('file://' + file + '#tick=999', 390, 844);
    const facts = await page.evaluate(() => {
      const box = document.querySelector('.chart');
      const svg = Array.from(box.querySelectorAll('svg')).find((e) => e.getBoundingClientRect().width > 0);
      const last = {};  // run -> [end tick, right edge] of its last cell
      for (const cell of svg.querySelectorAll('rect.op, rect.bubble')) {
        const end = cell.classList.contains('op') ? Number(cell.dataset.end) : Number(cell.dataset.start) + 1;
        const right = cell.getBoundingClientRect().right;
        const r = cell.dataset.run;
        if (!last[r] || end > last[r][0] || (end === last[r][0] && right > last[r][1])) last[r] = [end, right];
      }
      return { cls: svg.getAttribute('class'), last, boxScroll: box.scrollWidth - box.clientWidth,
               pageScroll: document.documentElement.scrollWidth - window.innerWidth, innerWidth: window.innerWidth };
    });
    assert.equal(facts.cls, 'phone');
    assert.ok(facts.boxScroll <= 0, `the chart's box scrolls ${facts.boxScroll} px sideways`);
    assert.ok(facts.pageScroll <= 0, `the page scrolls ${facts.pageScroll} px sideways`);
    assert.ok(Object.keys(facts.last).length >= 2, JSON.stringify(facts));
    for (const [run, [end, right]] of Object.entries(facts.last)) {
      assert.ok(right <= facts.innerWidth, `run ${run}'s last cycle (${end}) ends at ${right} px, past ${facts.innerWidth}`);
    }
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
