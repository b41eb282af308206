/**
 * Imported first by main.tsx: puts the stored theme on <html> before anything renders. (The usual
 * inline <script> in index.html is ruled out by the Content-Security-Policy, script-src 'self'.)
 */
import { startThemeSync } from './state/theme';

startThemeSync();
