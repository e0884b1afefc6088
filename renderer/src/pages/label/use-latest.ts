// Calls `load` whenever `key` changes, one call at a time: a change while a call runs asks for one more call after
// it (the newest), never a pile-up. The trust panel re-reads after every stored label this way.
import { useEffect, useRef, useState } from 'react';
import { errorText } from '../../api/desk';

export interface Latest<T> {
  value: T | null;
  /** The key the shown value was loaded for. */
  loadedFor: string | null;
  error: string | null;
  busy: boolean;
}

export function useLatest<T>(load: (() => Promise<T>) | null, key: string): Latest<T> {
  const [state, setState] = useState<Latest<T>>({ value: null, loadedFor: null, error: null, busy: false });
  const running = useRef(false);
  const again = useRef(false);
  const mounted = useRef(true);
  const latest = useRef(load);
  latest.current = load;
  const latestKey = useRef(key);
  latestKey.current = key;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    const run = async () => {
      if (running.current) {
        again.current = true;
        return;
      }
      running.current = true;
      try {
        do {
          again.current = false;
          const current = latest.current;
          const asked = latestKey.current;
          if (!current) break;
          setState((s) => ({ ...s, busy: true }));
          try {
            const value = await current();
            if (mounted.current) setState({ value, loadedFor: asked, error: null, busy: false });
          } catch (error) {
            if (mounted.current) setState((s) => ({ ...s, error: errorText(error), busy: false }));
          }
        } while (again.current && mounted.current);
      } finally {
        running.current = false;
      }
    };
    void run();
  }, [key]);
  return state;
}
