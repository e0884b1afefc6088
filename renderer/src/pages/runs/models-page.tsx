// The model picker's source: GGUF files found in LM Studio's and Ollama's folders and in folders added here.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { ModelFile } from '../../../../shared/api/models';
import { desk, errorText } from '../../api/desk';
import { formatBytes } from '../../components/format';
import { hrefFor } from '../../store/route-store';

export function ModelsPage() {
  const [models, setModels] = useState<ModelFile[] | null>(null);
  const [folders, setFolders] = useState<string[]>([]);
  const [folder, setFolder] = useState('');
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [found, added] = await Promise.all([desk.call('models.list', {}), desk.call('models.folders', {})]);
      setModels(found);
      setFolders(added.folders);
      setError(null);
    } catch (failure) {
      setError(errorText(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await desk.call('models.addFolder', { path: folder });
      setFolder('');
      await load();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const remove = async (path: string) => {
    await desk.call('models.removeFolder', { path }).catch((failure: unknown) => setError(errorText(failure)));
    await load();
  };

  return (
    <section className="page">
      <header className="page-head">
        <div>
          <a className="crumb" href={hrefFor({ page: 'datasets' })}>Runs and datasets</a>
          <h1>Models</h1>
        </div>
      </header>
      <form className="dropzone" onSubmit={add} aria-label="Add a model folder">
        <label className="field">
          Folder
          <input type="text" value={folder} size={50} placeholder="/path/to/folder/with/gguf/files" onChange={(event) => setFolder(event.target.value)} />
        </label>
        <button type="submit" disabled={!folder.trim()}>Add folder</button>
        {folders.map((path) => (
          <span key={path} className="chip mono">
            {path} <button type="button" className="link" onClick={() => remove(path)} aria-label={`Remove ${path}`}>×</button>
          </span>
        ))}
      </form>
      {error && <p className="error-text" role="alert">{error}</p>}
      {models && models.length === 0 && <p className="muted empty">No GGUF files found in LM Studio's or Ollama's folders or in the folders added here.</p>}
      {models && models.length > 0 && (
        <table className="plain" aria-label="Models">
          <thead>
            <tr><th>Name</th><th>Quantization</th><th className="num">Size</th><th>Architecture</th><th>Found in</th><th>Path</th></tr>
          </thead>
          <tbody>
            {models.map((model) => (
              <tr key={model.path}>
                <td>{model.name}{model.problem && <div className="error-text">{model.problem}</div>}</td>
                <td>{model.quantization ?? '—'}</td>
                <td className="num">{formatBytes(model.size_bytes)}</td>
                <td>{model.architecture ?? '—'}</td>
                <td>{model.source === 'folder' ? 'added folder' : model.source === 'lmstudio' ? 'LM Studio' : 'Ollama'}</td>
                <td className="mono muted">{model.path}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
