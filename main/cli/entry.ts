export { main } from './index';
