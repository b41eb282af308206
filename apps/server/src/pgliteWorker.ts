// The embedded database's worker thread (packages/db/src/pgliteWorker.ts), bundled as dist/pglite-worker.js.
import { servePGliteInWorker } from '@lodestone/db';

servePGliteInWorker();
