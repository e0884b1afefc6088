// Calls `load` whenever `key` changes, one call at a time: a change while a call runs asks for one more call after
// it (the newest), never a pile-up. The trust panel re-reads after every stored label this way.
import { useEffect, useRef, useState } from 'react';
import { errorText } from '../../api/desk';

export function useLatest<T>(load: (() => Promise<T>) | null, key: string): { value: T | null; error: string | null; busy: boolean } {
  const [state, setState] = useState<{ value: T | null; error: string | null; busy: boolean }>({ value: null, error: null, busy: false });
  const running = useRef(false);
  const again = useRef(false);
  const latest = useRef(load);
  latest.current = load;

  useEffect(() => {
    let live = true;
    const run = async () => {
      if (running.current) {
        again.current = true;
        return;
      }
      running.current = true;
      do {
        again.current = false;
        const current = latest.current;
        if (!current) break;
        setState((s) => ({ ...s, busy: true }));
        try {
          const value = await current();
          if (live) setState({ value, error: null, busy: false });
        } catch (error) {
          if (live) setState((s) => ({ ...s, error: errorText(error), busy: false }));
        }
      } while (again.current && live);
      running.current = false;
    };
    void run();
    return () => {
      live = false;
    };
  }, [key]);
  return state;
}
