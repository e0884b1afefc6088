// The datasets list, kept fresh by the engine's `datasets.changed` event.
import { create } from 'zustand';
import type { DatasetSummary } from '../../../shared/api/datasets';
import { desk, errorText } from '../api/desk';

interface DatasetsState {
  datasets: DatasetSummary[];
  loaded: boolean;
  error: string | null;
  refresh(): Promise<void>;
}

export const useDatasets = create<DatasetsState>((set) => ({
  datasets: [],
  loaded: false,
  error: null,
  async refresh() {
    try {
      const datasets = await desk.call('datasets.list', {});
      set({ datasets, loaded: true, error: null });
    } catch (error) {
      set({ loaded: true, error: errorText(error) });
    }
  },
}));

desk.on('datasets.changed', () => void useDatasets.getState().refresh());
