// The page's state in the URL: JSON, deflate-raw (CompressionStream),
// base64url, after "#s=". Every field is kept, valid CRD or not.
// oldCrd is the CRD in the cluster (the CRD is then an update of it), suite
// the Tests tab's suite, run its case filter, policy the Policy tab's
// policies and admission its options ({operation, user, groups}), tab the tab
// shown, kubeVersion the Kubernetes release of every verdict (absent in
// older links: the newest).
export const FIELDS = ['crd', 'object', 'old', 'fieldValidation', 'subresource', 'version', 'mode', 'oldCrd', 'suite', 'run', 'policy', 'admission', 'tab', 'kubeVersion'];

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function b64url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function unb64url(s) {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export async function encodeState(state) {
  const o = {};
  for (const k of FIELDS) if (state[k] !== undefined && state[k] !== '') o[k] = state[k];
  const bytes = new TextEncoder().encode(JSON.stringify(o));
  return 's=' + b64url(await pipe(bytes, new CompressionStream('deflate-raw')));
}

/** The state in a location hash, or null (also reads the old crd=&object= form). */
export async function decodeState(hash) {
  const h = hash.replace(/^#/, '');
  if (!h) return null;
  if (h.startsWith('s=')) {
    const bytes = await pipe(unb64url(h.slice(2)), new DecompressionStream('deflate-raw'));
    return JSON.parse(new TextDecoder().decode(bytes));
  }
  const p = new URLSearchParams(h);
  if (!p.has('crd')) return null;
  const o = {};
  for (const k of FIELDS) if (p.has(k)) o[k] = p.get(k);
  if (o.old && !o.mode) o.mode = 'update';
  return o;
}
