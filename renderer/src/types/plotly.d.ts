// Types for the small part of plotly.js-basic-dist the statistics screens use (the package ships none).
declare module 'plotly.js-basic-dist' {
  export interface PlotlyApi {
    newPlot(el: HTMLElement, data: unknown[], layout?: unknown, config?: unknown): Promise<unknown>;
    react(el: HTMLElement, data: unknown[], layout?: unknown, config?: unknown): Promise<unknown>;
    purge(el: HTMLElement): void;
    toImage(el: HTMLElement, options: { format: 'png' | 'svg'; width?: number; height?: number; scale?: number }): Promise<string>;
    Plots: { resize(el: HTMLElement): void };
  }
  const Plotly: PlotlyApi;
  export default Plotly;
}
