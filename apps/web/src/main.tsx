// First: the stored theme goes on <html> before anything renders.
import './theme-init';
import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { registerServiceWorker } from './sw/register';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Every navigation starts at the top (docs/website.md, Layout and navigation), including back and forward.
window.history.scrollRestoration = 'manual';

// Production only: the worker serves built files, which Vite's dev server does not have.
if (import.meta.env.PROD) registerServiceWorker();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
