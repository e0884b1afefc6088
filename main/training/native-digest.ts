// The selectors hash with Node's sha256 in the engine (shared/ cannot import node:crypto; it takes it here).
import { createHash } from 'node:crypto';
import { useSha256 } from '../../shared/training/index';

useSha256((text) => createHash('sha256').update(text, 'utf8').digest('hex'));
