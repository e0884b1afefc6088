// The renderer's entry: starts the jobs its address names (address-jobs.ts), then loads and mounts the app shell.
// Talks to the engine only through the typed API (api/desk.ts).
import { watchAddressJobs } from './address-jobs';
import './styles.css';

watchAddressJobs();
void import('./mount-app').then((app) => app.mountApp());
