// First: the stored theme goes on <html> before anything renders.
import './theme-init';
import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Every navigation starts at the top (docs/website.md, Layout and navigation), including back and forward.
window.history.scrollRestoration = 'manual';

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
