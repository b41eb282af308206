/** npm run docs:config — rewrites docs/configuration.md from the settings table. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderConfigurationDocs } from '../src/config/docs.js';

const target = fileURLToPath(new URL('../../../docs/configuration.md', import.meta.url));
writeFileSync(target, renderConfigurationDocs());
console.log(`wrote ${target}`);
