// Migrations are imported as text: esbuild's text loader in the server bundle, the `sql-as-text`
// plugin in vitest.config.ts for tests.
declare module '*.sql' {
  const text: string;
  export default text;
}
