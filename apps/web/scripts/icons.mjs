// node apps/web/scripts/icons.mjs — draws the installed app's icons (public/icons/*.png, named in
// public/manifest.webmanifest and index.html) from the site's logo, public/favicon.svg, so the two never differ.
// Chromium (Debian's, through playwright-core, as the browser tests use it) renders the SVG at each size; run it
// again after the logo changes and commit the PNGs.
//
// - icon-192.png, icon-512.png: "any" purpose, the logo on a transparent ground.
// - icon-maskable-512.png: "maskable", the launcher cuts it to its own shape; only the centre circle of 80% of the
//   width is sure to show (W3C Web Application Manifest, icon masks; web.dev "Adaptive icon support in PWAs with
//   maskable icons"), so the logo fills 60% on the site's dark ground to the edges.
// - apple-touch-icon.png (180): iOS puts transparent pixels on black, so the ground is painted here too.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));
/** slate-950: the dark theme's page colour, and the manifest's background_color and theme_color. */
const GROUND = '#020617';
const ICONS = [
  { file: 'icons/icon-192.png', size: 192, logo: 1, ground: null },
  { file: 'icons/icon-512.png', size: 512, logo: 1, ground: null },
  { file: 'icons/icon-maskable-512.png', size: 512, logo: 0.6, ground: GROUND },
  { file: 'icons/apple-touch-icon.png', size: 180, logo: 0.8, ground: GROUND },
];

const svg = readFileSync(`${publicDir}favicon.svg`, 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const side = Math.round(icon.size * icon.logo);
    await page.setContent(
      `<body style="margin:0;width:${icon.size}px;height:${icon.size}px;display:grid;place-items:center;background:${icon.ground ?? 'transparent'}">` +
        `<div style="width:${side}px;height:${side}px">${svg.replace('<svg ', `<svg width="${side}" height="${side}" `)}</div></body>`,
    );
    writeFileSync(`${publicDir}${icon.file}`, await page.screenshot({ omitBackground: icon.ground === null }));
    await page.close();
    console.log(`${icon.file}: ${icon.size}×${icon.size}`);
  }
} finally {
  await browser.close();
}
