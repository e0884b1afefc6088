// The selectors hash with Node's sha256 in the engine (shared/ cannot import node:crypto; it takes it here). The
// one-shot crypto.hash makes no Hash object per text: two texts a row on 100k rows.
import { hash } from 'node:crypto';
import { useSha256 } from '../../shared/training/index';

useSha256((text) => hash('sha256', text, 'hex'));
