// The Share worker: encodes the page's state for the URL off the page's
// thread. Deflating and base64-encoding a 400 KiB CRD takes 60-110 ms of
// main-thread tasks on this machine (CompressionStream runs on the thread
// that reads it); here they cost the page nothing. Messages: {id, state} →
// {id, hash} or {id, error}.
import { encodeState } from './share.js';

self.onmessage = async (ev) => {
  const { id, state } = ev.data;
  try {
    self.postMessage({ id, hash: await encodeState(state) });
  } catch (e) {
    self.postMessage({ id, error: String(e?.message ?? e) });
  }
};
