// The renderer's entry: starts the jobs its address names (address-jobs.ts), then loads and mounts the app shell.
// Talks to the engine only through the typed API (api/desk.ts).
import { watchAddressJobs } from './address-jobs';
import { prewarmFonts } from './prewarm-fonts';
import './styles.css';

watchAddressJobs();
// Each in a task of its own, while React's code is still on its way (prewarm-fonts.ts).
prewarmFonts();
// React's DOM module is asked for on its own as well as with the shell that imports it: its graph is complete first,
// so it is evaluated in a task of its own and the shell in the next. Evaluated together they were one task of 60-90 ms
// here as the page opened (issue 11: no long task over 50 ms).
void import('react-dom/client');
void import('./mount-app').then((app) => app.mountApp());
