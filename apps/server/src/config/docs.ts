import { SETTINGS, type Setting } from './settings.js';

function defaultText(setting: Setting<unknown>): string {
  if (setting.defaultDoc) return setting.defaultDoc;
  if (!('default' in setting) || setting.default === undefined) return 'unset';
  const value = setting.default;
  if (value === '') return 'empty';
  if (Array.isArray(value) && value.length === 0) return 'none';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/** docs/configuration.md, generated from the settings table so the two cannot drift apart. */
export function renderConfigurationDocs(): string {
  const rows = Object.values(SETTINGS as Record<string, Setting<unknown>>).map(
    (s) => `| \`${s.env}\` | \`${s.file}\` | ${defaultText(s)} | ${s.doc} |`,
  );
  return `# Configuration

<!-- Generated from apps/server/src/config/settings.ts by \`npm run docs:config\`; edit that file, not this one. -->

Lodestone reads its settings from environment variables and, optionally, from a config file named by
\`LODESTONE_CONFIG\` (TOML, or JSON when the name ends in \`.json\`). An environment variable wins over
the file. Every value is checked at start-up: a bad one stops the program with exit code 78 and a
message that names the setting, for example:

\`\`\`
Invalid configuration:
  - PORT: expected an integer from 1 to 65535, got "abc"
\`\`\`

Unknown keys in the config file are refused too, so a typo never silently falls back to a default.

## Settings

| Environment | Config file key | Default | Meaning |
| --- | --- | --- | --- |
${rows.join('\n')}

## Example config file

\`\`\`toml
[server]
port = 8080
public_url = "https://pool.example.org"
trust_proxy = true

[database]
url = "postgres://lodestone:secret@127.0.0.1:5432/lodestone"

[pool]
name = "Example Pool"
fee_percent = 1
stratum_host = "example.org"
support_email = "support@example.org"

[site]
banner_text = "Scheduled maintenance on <b>Sunday 02:00 UTC</b>."
socials = [{ label = "X", url = "https://x.com/examplepool" }]
\`\`\`

## Embedded defaults

With nothing configured, \`npm start\` serves the site and API on port 8080 and keeps its data in an
embedded PostgreSQL (PGlite) under \`./data\`. Set \`DATABASE_URL\` to use a PostgreSQL server instead;
migrations run automatically at start-up, and the program refuses to start on a database whose schema
is newer than itself.
`;
}
