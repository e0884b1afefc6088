// Where the engine keeps API keys: the desktop app's OS keychain (through Electron main), or nowhere (CLI,
// `serve`), in which case agents read keys from the environment only.
export interface SecretStore {
  list(): Promise<string[]>;
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<boolean>;
}
