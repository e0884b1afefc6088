// Binds a case's positional arguments to the SDK's parameter names, then overlays its keyword arguments.
type Kw = Record<string, unknown>;

export function bind(names: string[], call: { args: unknown[]; kwargs: Kw }): Kw {
  const out: Kw = {};
  call.args.forEach((value, i) => {
    if (i >= names.length) throw new Error(`too many positional arguments (${call.args.length}) for (${names.join(', ')})`);
    out[names[i]] = value;
  });
  for (const [key, value] of Object.entries(call.kwargs)) out[key] = value;
  return out;
}
